import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('static files carry X-Content-Type-Options: nosniff and Content-Security-Policy: sandbox', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-static')]);
  for (const [file, type] of [
    ['public/img/logo.svg', 'image/svg+xml'],
    ['public/app.js', 'text/javascript; charset=utf-8'],
    ['template.js', 'text/javascript; charset=utf-8'],
  ]) {
    for (const version of ['1.0.0', '1.x']) {
      const { status, headers } = await request(`${url}core-static/${version}/static/${file}`);
      t.equal(status, 200, `${file}@${version}`);
      t.equal(headers.get('content-type'), type, file);
      t.equal(headers.get('x-content-type-options'), 'nosniff', `${file}@${version}`);
      t.equal(headers.get('content-security-policy'), 'sandbox', `${file}@${version}`);
    }
  }
});
