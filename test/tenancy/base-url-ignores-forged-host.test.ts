import http from 'node:http';
import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';

/** A GET with exactly these headers (fetch does not let a caller choose Host). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

const FORGED = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

t.test('without baseUrl configured, answers use the listen address whatever Host says', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-modes')]);
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);

  const rendered = await get(`${url}core-modes?name=Ada`, FORGED);
  t.equal(rendered.status, 200);
  t.equal(rendered.body.href, `${url}core-modes?name=Ada`);
  t.equal(rendered.body.baseUrl, url);
  t.match(rendered.body.html, `<oc-component href="${url}core-modes?name=Ada"`);

  const unrendered = await get(`${url}core-modes/1.0.0?name=Ada`, { ...FORGED, accept: 'application/vnd.oc.unrendered+json' });
  t.equal(unrendered.body.template.src, `${url}core-modes/1.0.0/static/template.js`);

  const list = await get(url, FORGED);
  t.strictSame(list.body, { href: url, type: 'oc-registry', components: [`${url}core-modes`] });
});

t.test('a configured baseUrl is used as is', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-modes')], (config) => {
    config.baseUrl = 'https://components.example.com/';
  });
  const rendered = await get(`${url}core-modes?name=Ada`, FORGED);
  t.equal(rendered.body.href, 'https://components.example.com/core-modes?name=Ada');
});
