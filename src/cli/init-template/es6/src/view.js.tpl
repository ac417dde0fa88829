// The view: the model from the server logic in, HTML out. It runs on the registry and in browsers.
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export default (model) =>
  `<link rel="stylesheet" href="${escape(model.staticPath)}public/styles.css">` +
  `<p class="{{name}}">Hello, ${escape(model.name)}!</p>`;
