export default (model) => `<p>${model.text}</p>`;
