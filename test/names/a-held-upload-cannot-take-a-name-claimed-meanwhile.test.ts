import http from 'node:http';
import t from 'tap';
import { request, startRegistry } from '../helpers/start-registry';
import { GREETING, packed, put } from '../publish/publish-helpers';
import type { RegistryConfig } from '../../src/config/config';
import { BYSTANDER, COOKIE_KEEPER, LABS, SHOP, nameTaken, overlappingTenants, packedAs } from './names-helpers';

/**
 * The upload is held while other publishes go through: on a machine whose CPUs are busy with other
 * work those took past the 10 s a body may stay idle (408 REQUEST_TIMEOUT), a bound tested on its own.
 */
const holdingUploads = (config: RegistryConfig): void => {
  overlappingTenants(config);
  config.limits.requestBodyIdleMs = 120_000;
};

/** A PUT whose body arrives in two halves, the second when `finish` is called. */
function heldUpload(url: string, id: string, token: string, body: Buffer) {
  const half = Math.floor(body.length / 2);
  let finish!: () => void;
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request(`${url}${id}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip', 'content-length': body.length } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.write(body.subarray(0, half));
    finish = () => req.end(body.subarray(half));
  });
  return { answered, finish: () => finish() };
}

/**
 * `shop` (`shop-*`) starts publishing `shop-labs-widget` before `labs` (`shop-labs-*`) ever did, and
 * holds its upload open. The owner is decided by the store when the upload is complete, not when
 * its headers arrived: `labs` publishes first and keeps the name; `shop`'s finished upload is refused
 * and nothing of it is stored. A bystander tenant publishes meanwhile.
 */
t.test("an upload held open cannot take a name another tenant claimed meanwhile", async (t) => {
  const { url, registry } = await startRegistry(t, [], holdingUploads);
  const held = heldUpload(url, 'shop-labs-widget/99.0.0', SHOP, await packedAs(COOKIE_KEEPER, 'shop-labs-widget', '99.0.0'));

  const first = await put(url, 'shop-labs-widget/1.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-widget', '1.0.0'), { token: LABS });
  t.same([first.status, first.body], [201, { ok: true, name: 'shop-labs-widget', version: '1.0.0' }]);
  const bystander = await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: BYSTANDER });
  t.equal(bystander.status, 201, 'another tenant publishes while the upload is held');

  held.finish();
  const late = await held.answered;
  t.same([late.status, late.body], [403, nameTaken('shop', 'shop-labs-widget', '99.0.0', 'labs')]);
  t.same(await registry.storage.listVersions('shop-labs-widget'), ['1.0.0'], 'nothing of the refused upload is stored');

  const latest = await request(`${url}shop-labs-widget`, { headers: { accept: 'application/vnd.oc.info+json' } });
  t.same(latest.body, { type: 'oc-component', version: '1.0.0', requestVersion: '', name: 'shop-labs-widget' }, "latest is labs' version");
  const next = await put(url, 'shop-labs-widget/1.0.1', await packedAs(COOKIE_KEEPER, 'shop-labs-widget', '1.0.1'), { token: LABS });
  t.equal(next.status, 201, "labs' next version is its own to publish");
  const unpublished = await request(`${url}shop-labs-widget/1.0.1`, { method: 'DELETE', headers: { authorization: `Bearer ${LABS}` } });
  t.equal(unpublished.status, 200, 'and to unpublish');
});

/** The same race, the other way round: `shop` claims first with a plain publish; `labs`' held upload is refused. */
t.test('a held upload of the tenant with the narrower pattern is refused the same way', async (t) => {
  const { url, registry } = await startRegistry(t, [], holdingUploads);
  const held = heldUpload(url, 'shop-labs-gadget/1.0.0', LABS, await packedAs(COOKIE_KEEPER, 'shop-labs-gadget', '1.0.0'));
  const first = await put(url, 'shop-labs-gadget/2.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-gadget', '2.0.0'), { token: SHOP });
  t.equal(first.status, 201);
  held.finish();
  const late = await held.answered;
  t.same([late.status, late.body], [403, nameTaken('labs', 'shop-labs-gadget', '1.0.0', 'shop')]);
  t.same(await registry.storage.listVersions('shop-labs-gadget'), ['2.0.0']);
});
