import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import { moveName } from '../../src/names/move-name';
import { publishPackage, type PublishJob } from '../../src/publish/publish-package';
import { serverScriptBounds } from '../../src/publish/server-script-bounds';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import type { StorageAdapter } from '../../src/storage/storage-adapter';
import { request, startRegistry } from '../helpers/start-registry';
import { GREETING, packed, put } from '../publish/publish-helpers';
import { admin, tenantWithToken } from '../tenants/admin-helpers';
import { BYSTANDER, COOKIE_KEEPER, LABS, SHOP, nameTaken, overlappingTenants, packedAs, replicaOver } from './names-helpers';

const NAME = 'shop-labs-wallet';
const DEFAULT_TENANT = defaultConfig().tenants.default;
const RULES = { maxBytes: 20 * 1024 * 1024, dependencyPolicy: { deny: [], allow: [] }, serverScript: serverScriptBounds(defaultConfig().limits), defaultTenant: DEFAULT_TENANT };
const shopJob = (version: string, extra: Partial<PublishJob> = {}): PublishJob => ({ name: NAME, version, tenant: 'shop', tokenId: 'config:shop', storedToken: false, dryRun: false, ...extra });

/** `storage`, but a deletion of a name's record waits for `gate` (told through `reached` that it is there). */
function withHeldNameDeletes(storage: StorageAdapter, reached: () => void, gate: Promise<void>): StorageAdapter {
  return new Proxy(storage, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === 'deleteRecords') {
        return async (keys: readonly string[]) => {
          if (keys.some((key) => key.startsWith('names/'))) {
            reached();
            await gate;
          }
          return target.deleteRecords(keys);
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A released name (decisions §15) is claimed by `shop`'s publish A, which a quota then refuses;
 * meanwhile `shop`'s publish B finds the name `shop`'s by A's claim and stores its version under
 * that claim's generation. The claim is a record created once: A's refusal must not take it back
 * from under B's stored version, or the name is free again for `labs` (whose pattern covers it),
 * which then holds the same generation, so the same cookie scope as `shop`'s stored version, and
 * reads what `shop`'s code left in its visitors' browsers. A bystander tenant publishes beside it.
 */
t.test("a refused publish takes back no claim another publish of its tenant stored a version under", async (t) => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tessera-claim-takeback-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const storage = new FileSystemStorage(folder);

  // shop published the name; the administrator released it.
  await publishPackage(storage, shopJob('1.0.0'), Readable.from([await packedAs(COOKIE_KEEPER, NAME, '1.0.0')]), RULES);
  await moveName(storage, NAME, null, DEFAULT_TENANT);

  // A: claims the released name for shop, then its storage quota refuses it; held before it takes its claim back.
  let reached!: () => void;
  const atTakeBack = new Promise<void>((resolve) => (reached = resolve));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const refused = publishPackage(
    withHeldNameDeletes(storage, reached, gate),
    shopJob('2.0.0', { quotas: { storageBytes: 10 } }),
    Readable.from([await packedAs(COOKIE_KEEPER, NAME, '2.0.0')]),
    RULES,
  );
  // Held where it would take its claim back; or refused already, having claimed nothing.
  await Promise.race([atTakeBack, refused.catch(() => {})]);
  // B: shop's other publish, under the claim A made.
  await publishPackage(storage, shopJob('2.0.1'), Readable.from([await packedAs(COOKIE_KEEPER, NAME, '2.0.1')]), RULES);
  open();
  await t.rejects(refused, { code: 'QUOTA_EXCEEDED' }, 'A is refused by its quota');

  const { url } = await replicaOver(t, folder, overlappingTenants);
  const shown = await admin(url, 'GET', `names/${NAME}`);
  t.match(shown.body, { owner: 'shop', versions: [{ version: '1.0.0', tenant: 'shop' }, { version: '2.0.1', tenant: 'shop' }] }, 'the name is shop\'s: its version 2.0.1 is stored under its claim');

  const bystander = await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: BYSTANDER });
  t.equal(bystander.status, 201, 'a bystander tenant publishes meanwhile');

  const taken = await put(url, `${NAME}/3.0.0`, await packedAs(COOKIE_KEEPER, NAME, '3.0.0'), { token: LABS });
  t.same([taken.status, taken.body], [403, nameTaken('labs', NAME, '3.0.0', 'shop')], 'labs cannot take the name');

  // What shop's code leaves in a visitor's browser.
  const login = await request(`${url}${NAME}/2.0.1?login=true`);
  const [shopCookie] = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
  t.ok(shopCookie?.endsWith('.session=beta-secret'), 'shop\'s version sets its session cookie');
  if (taken.status === 201) {
    const read = await request(`${url}${NAME}/3.0.0`, { headers: { cookie: `site=1; ${shopCookie}` } });
    t.equal(read.body.html, '<p>site=1</p>', `labs's version never reads shop's ${shopCookie}`);
  }
});

/**
 * The other side of the same rule: what can refuse a publish (a quota, a revoked token) is decided
 * before its name is claimed, so a tenant whose publish is refused holds no name it stored nothing
 * under, and the tenant whose publish stores it next gets it.
 */
t.test('a publish its quota refuses claims no name', async (t) => {
  const { url } = await startRegistry(t, [], overlappingTenants);
  const { token } = await tenantWithToken(url, { name: 'lab-two', components: ['shop-labs-*'], quotas: { storageBytes: 10 } });
  const refused = await put(url, 'shop-labs-basket/1.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-basket', '1.0.0'), { token });
  t.match([refused.status, refused.body], [429, { code: 'QUOTA_EXCEEDED', details: { quota: 'storageBytes' } }]);
  t.equal((await admin(url, 'GET', 'names/shop-labs-basket')).status, 404, 'no tenant owns the name');
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: BYSTANDER })).status, 201, 'a bystander tenant publishes meanwhile');
  t.equal((await put(url, 'shop-labs-basket/1.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-basket', '1.0.0'), { token: SHOP })).status, 201, 'shop publishes it');
  t.match((await admin(url, 'GET', 'names/shop-labs-basket')).body, { owner: 'shop', generation: 1 });
});
