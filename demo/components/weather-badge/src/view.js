const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export default ({ city, temperature, days, compact }) =>
  compact
    ? `<span class="weather-badge">${escape(city)} ${temperature}</span>`
    : `<div class="weather-badge"><h3>${escape(city)}</h3><p>${temperature}, ${days}-day forecast</p></div>`;
