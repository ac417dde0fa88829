const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export default ({ label }) => `<span class="price-tag">${escape(label)}</span>`;
