import http from 'node:http';
import t from 'tap';
import { request } from '../helpers/start-registry';
import { GREETING, SHOP_TOKEN, packagedFiles, put, startPublishRegistry } from './publish-helpers';
import { packTarball } from '../../src/packager/pack-tarball';

/**
 * The static route serves `template.js` and the declared static folders (`public/`), and nothing
 * else: not the component's server code, descriptor or env file, not a folder whose name merely
 * starts like a declared one, not another component's files, however the path is encoded. Raw
 * requests, so that no client normalizes the path first. Every answer is coded (decisions §2), and
 * an HTML or SVG file of a tenant is served sandboxed.
 */

function rawGet(url: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ hostname, port, path, method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString() }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

t.test("a static path never reaches a file outside the declared folders, nor another component's", async (t) => {
  const { url } = await startPublishRegistry(t);
  const files = await packagedFiles(GREETING);
  const descriptor = JSON.parse(files.get('package.json')!.toString());
  files.set('publicity/secret.txt', Buffer.from('not static'));
  files.set('public/page.html', Buffer.from('<script>document.cookie</script>'));
  files.set('public/image.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"/>'));
  files.set('package.json', Buffer.from(JSON.stringify({ ...descriptor, name: 'shop-greeting' })));
  t.equal((await put(url, 'shop-greeting/1.0.0', await packTarball(files), { token: SHOP_TOKEN })).status, 201);
  t.equal((await put(url, 'publish-greeting/1.0.0', await packTarball(await packagedFiles(GREETING)))).status, 201);

  for (const path of [
    'shop-greeting/1.0.0/static/server.js',
    'shop-greeting/1.0.0/static/package.json',
    'shop-greeting/1.0.0/static/publicity/secret.txt',
    'shop-greeting/1.0.0/static/public/../server.js',
    'shop-greeting/1.0.0/static/public/..%2Fserver.js',
    'shop-greeting/1.0.0/static/public%2F..%2Fserver.js',
    'shop-greeting/1.0.0/static/public/%2e%2e/server.js',
    'shop-greeting/1.0.0/static/public/..%5Cserver.js',
    'shop-greeting/1.0.0/static/public/.%2Fx/..%2F..%2Fserver.js',
    'shop-greeting/1.0.0/static/public/x%00.js',
    'shop-greeting/1.0.0/static/public//etc/passwd',
    'shop-greeting/1.0.0/static/public/%2Fetc%2Fpasswd',
    'shop-greeting/1.0.0/static/public/..%2F..%2F..%2Fpublish-greeting%2F1.0.0%2Fserver.js',
    'shop-greeting/..%2Fpublish-greeting%2F1.0.0/static/public/..%2Fserver.js',
    'shop-greeting%2F..%2Fpublish-greeting/1.0.0/static/template.js',
  ]) {
    const answer = await rawGet(url, `/${path}`);
    t.not(answer.status, 200, path);
    t.notMatch(answer.text, /module\.exports|"dependencies"|not static|root:/, `${path}: no content leaks`);
    let body: any;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = answer.text;
    }
    t.match(body, { code: String, error: String }, `${path}: a coded answer (${answer.status})`);
  }

  for (const [file, type] of [
    ['public/page.html', 'text/html; charset=utf-8'],
    ['public/image.svg', 'image/svg+xml'],
  ]) {
    const answer = await rawGet(url, `/shop-greeting/1.0.0/static/${file}`);
    t.equal(answer.status, 200, file);
    t.equal(answer.headers['content-type'], type, file);
    t.equal(answer.headers['x-content-type-options'], 'nosniff', file);
    t.equal(answer.headers['content-security-policy'], 'sandbox', file);
  }
  // The bystander still renders.
  t.match((await request(`${url}publish-greeting?name=Ada`)).body.html, 'Hello, Ada!');
});
