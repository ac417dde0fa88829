{
  "name": "{{name}}",
  "version": "1.0.0",
  "description": "Greets someone by name, with a counter that works once the browser has hydrated it.",
  "devDependencies": { "oc-template-esm-compiler": "1.0.0" },
  "oc": {
    "files": {
      "template": { "src": "src/entry.client.tsx", "type": "oc-template-esm" },
      "data": "src/entry.server.ts",
      "static": ["public"]
    },
    "state": "experimental"
  }
}
