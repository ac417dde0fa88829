// The children's HTML comes rendered (and escaped) by the registry, so it is inserted as is.
export default ({ greeting, weather }) => `<section class="welcome-panel">${greeting}${weather || '<p>Weather unavailable.</p>'}</section>`;
