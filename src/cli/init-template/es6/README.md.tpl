# {{name}}

A Tessera component: a greeting with one parameter, `name`.

| file | what it is |
|---|---|
| `package.json` | the descriptor: name, version, the view, the server entry, the static folder |
| `src/entry.server.ts` | the server logic, built with `oc-server`; declares the `name` parameter |
| `src/view.js` | the view: a function from the model to an HTML string |
| `public/` | static files, served at `<registry>/{{name}}/<version>/static/public/` |

```sh
tessera dev .                                   # a local registry that rebuilds on every change
tessera package .                               # writes the publishable package to ./_package
tessera publish . --registry <url> --token <t>  # publishes it (or set TESSERA_TOKEN)
```

Versions are immutable: raise `version` in `package.json` before publishing again.
