const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export default (model) => `<span class="bench-nested-badge">${escape(model.label)}</span>`;
