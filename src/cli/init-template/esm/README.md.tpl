# {{name}}

A Tessera component of type `oc-template-esm`: a greeting with one parameter, `name`, and a
counter. The registry renders the view to HTML on the server; the browser client hydrates it, so
the button works.

| file | what it is |
|---|---|
| `package.json` | the descriptor: name, version, the view, the server entry, the static folder |
| `src/entry.server.ts` | the server logic, built with `oc-server`; declares the `name` parameter |
| `src/entry.client.tsx` | the view: a Preact function component of the model |
| `public/` | static files, served at `<registry>/{{name}}/<version>/static/public/` |
| `tsconfig.json` | for editors; the packager provides Preact, no `npm install` needed |

```sh
tessera dev .                                   # a local registry that rebuilds on every change
tessera package .                               # writes the publishable package to ./_package
tessera publish . --registry <url> --token <t>  # publishes it (or set TESSERA_TOKEN)
```

Versions are immutable: raise `version` in `package.json` before publishing again.
