import t from 'tap';
import path from 'node:path';
import { DEMO, request, startRegistry } from '../helpers/start-registry';

t.test('the welcome-panel demo renders hello-world and weather-badge inside itself', async (t) => {
  const { url, registry } = await startRegistry(t, ['welcome-panel', 'hello-world', 'weather-badge'].map((name) => path.join(DEMO, name)));
  const { status, body } = await request(`${url}welcome-panel?name=Ada&city=Porto`);
  t.equal(status, 200);
  const key = (name: string) => registry.catalog.resolve(name, '').templateKey;
  const wrap = (name: string, version: string, href: string, content: string) =>
    `<oc-component href="${href}" data-hash="${key(name)}" id="ID" data-name="${name}" data-rendered="true" data-version="${version}">${content}` +
    `<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["${name}"]="${version}";</script></oc-component>`;
  const greeting = wrap('hello-world', '1.0.0', `${url}hello-world?name=Ada`, '<p class="hello-world">Hello, Ada!</p>');
  const weather = wrap('weather-badge', '2.1.0', `${url}weather-badge/2.x?city=Porto&amp;compact=true&amp;units=metric&amp;days=1`, '<span class="weather-badge">Porto 21°C</span>');
  t.equal(
    body.html.replace(/ id="[0-9a-f-]{36}"/g, ' id="ID"'),
    wrap('welcome-panel', '1.0.0', `${url}welcome-panel?name=Ada&amp;city=Porto`, `<section class="welcome-panel">${greeting}${weather}</section>`),
  );
});

t.test('a failed child leaves the rest of the panel standing', async (t) => {
  const { url } = await startRegistry(t, ['welcome-panel', 'hello-world'].map((name) => path.join(DEMO, name)));
  const { status, body } = await request(`${url}welcome-panel`);
  t.equal(status, 200);
  t.match(body.html, /Hello, World!<\/p>.*<p>Weather unavailable\.<\/p><\/section>/s);
});
