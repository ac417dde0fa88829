import http from 'node:http';
import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';

/** A GET whose path is sent byte for byte (fetch would resolve `..` and `%2e%2e` before sending). */
function rawGet(base: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

t.test('paths outside the static folders are refused with 404 and nothing leaks', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-static'), fixture('core-modes')], (config) => {
    config.limits.sandboxHosts = 1;
  });

  const attempts = [
    '/core-static/1.0.0/static/../package.json',
    '/core-static/1.0.0/static/public/../package.json',
    '/core-static/1.0.0/static/public/../server.js',
    '/core-static/1.0.0/static/public/../.env',
    '/core-static/1.0.0/static/%2e%2e/package.json',
    '/core-static/1.0.0/static/%2E%2E/server.js',
    '/core-static/1.0.0/static/public/%2e%2e/server.js',
    '/core-static/1.0.0/static/public%2f..%2fserver.js',
    '/core-static/1.0.0/static/public/%2e%2e%2f%2e%2e%2f%2e%2e%2fcore-modes%2f1.0.0%2fpackage.json',
    '/core-static/1.0.0/static/public/../../../core-modes/1.0.0/server.js',
    '/core-static/1.0.0/static/public/./style.css',
    '/core-static/1.0.0/static/public%5c..%5cserver.js',
    '/core-static/1.0.0/static//etc/passwd',
    '/core-static/1.0.0/static/%2fetc%2fpasswd',
    '/core-static/1.0.0/static/public/style.css%00.png',
    '/core-static/1.0.0/static/package.json',
    '/core-static/1.0.0/static/server.js',
    '/core-static/1.0.0/static/.env',
    '/core-static/1.0.0/static/src/view.js',
  ];
  for (const attempt of attempts) {
    const { status, body } = await rawGet(url, attempt);
    t.equal(status, 404, attempt);
    const parsed = JSON.parse(body) as { code: string; error: string };
    t.equal(parsed.code, 'NOT_FOUND', `${attempt} answers the NOT_FOUND body`);
    t.notMatch(body, /PRIVATE-MARKER|"oc"|hashKey|__tesseraDefine|module\.exports/, `${attempt} leaks nothing`);
  }

  const exact = await rawGet(url, '/core-static/1.0.0/static/..%2fpackage.json');
  t.equal(exact.status, 404);
  t.same(JSON.parse(exact.body), {
    code: 'NOT_FOUND',
    error: 'File "../package.json" is not a static file of core-static@1.0.0.',
    name: 'core-static',
    requestVersion: '1.0.0',
  });

  const served = await rawGet(url, '/core-static/1.0.0/static/public/style.css');
  t.equal(served.status, 200, 'the same route still serves a declared file');
});
