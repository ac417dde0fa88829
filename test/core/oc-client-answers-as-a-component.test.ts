import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT, request, startRegistry } from '../helpers/start-registry';

const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

t.test('oc-client answers as a component: rendered, its info on Accept, NOT_FOUND for another version', async (t) => {
  const { url } = await startRegistry(t, []);
  const rendered = {
    href: `${url}oc-client`,
    name: 'oc-client',
    version: VERSION,
    requestVersion: '',
    html: `<script src="${url}oc-client/client.js"></script>`,
    type: 'oc-component',
    renderMode: 'rendered',
    baseUrl: url,
  };
  const plain = await request(`${url}oc-client`);
  t.equal(plain.status, 200);
  t.same(plain.body, rendered);
  const unrendered = await request(`${url}oc-client`, { headers: { accept: 'application/vnd.oc.unrendered+json' } });
  t.same(unrendered.body, rendered, 'unrendered asked: rendered all the same (it has no template to send)');

  const info = await request(`${url}oc-client/${VERSION}`, { headers: { accept: 'application/vnd.oc.info+json' } });
  t.equal(info.status, 200);
  t.strictSame(info.body, { type: 'oc-component', version: VERSION, requestVersion: VERSION, name: 'oc-client' });

  const other = await request(`${url}oc-client/0.0.1`, { headers: { accept: 'application/vnd.oc.info+json' } });
  t.equal(other.status, 404);
  t.same(other.body, {
    code: 'NOT_FOUND',
    error: `Component "oc-client" has no version matching "0.0.1"; published versions: ${VERSION}.`,
    name: 'oc-client',
    requestVersion: '0.0.1',
  });
});
