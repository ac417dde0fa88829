export default (model) => `<section class="bench-nested-parent">${model.greeting}${model.badge}</section>`;
