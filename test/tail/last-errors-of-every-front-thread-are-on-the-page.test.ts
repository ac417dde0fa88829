import t from 'tap';
import type { RegistryConfig } from '../../src/config/config';
import { freshGet } from '../helpers/fresh-get';
import { fixture, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { SHOP_TOKEN, twoTenants } from './tail-helpers';

const FAILURES = 20;
const thrower: TenantComponent = { dir: fixture('errors-thrower'), tenant: 'shop', name: 'shop-thrower' };

/** Two front threads on the registry's port, with the two tenants' tokens. */
const twoFronts = (config: RegistryConfig): void => {
  twoTenants(config);
  config.limits.frontThreads = 2;
};

t.test("a component's page shows the last errors every front thread of the process answered", async (t) => {
  const { url, registry } = await startRegistry(t, [thrower], twoFronts);
  // Each failure on a connection of its own: both threads answer some.
  for (let index = 1; index <= FAILURES; index++) t.equal((await freshGet(`${url}shop-thrower?message=failure+${index}`)).status, 500);
  const ownMessages = registry.lastErrors.of('shop-thrower').map((error) => error.message);
  t.ok(ownMessages.length > 0 && ownMessages.length < FAILURES, `the main thread answered ${ownMessages.length} of ${FAILURES}, the other thread the rest`);

  // Whichever thread answers the page gathers both.
  for (let ask = 0; ask < 4; ask++) {
    const page = await request(`${url}shop-thrower/~info`, { headers: { accept: 'text/html', authorization: `Bearer ${SHOP_TOKEN}`, connection: 'close' } });
    t.equal(page.status, 200);
    const messages = [...page.text.matchAll(/Component &quot;shop-thrower&quot; failed: (failure \d+)/g)].map(([, message]) => message!);
    t.same(
      [...messages].sort(),
      Array.from({ length: FAILURES }, (_, index) => `failure ${index + 1}`).sort(),
      'every failure, whichever thread answered it, once',
    );
  }
});
