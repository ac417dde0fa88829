const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export default (model) => `<p class="hello-world">Hello, ${escape(model.name)}!</p>`;
