{
  "name": "{{name}}",
  "version": "1.0.0",
  "description": "Greets someone by name.",
  "devDependencies": { "oc-template-es6-compiler": "1.0.0" },
  "oc": {
    "files": {
      "template": { "src": "src/view.js", "type": "oc-template-es6" },
      "data": "src/entry.server.ts",
      "static": ["public"]
    },
    "state": "experimental"
  }
}
