import t from 'tap';
import { hashToken, mayPublish, tokenOf } from '../../src/publish/tenant-tokens';

const checkout = { tenant: 'checkout', sha256: hashToken('checkout-token'), components: ['checkout-*', 'basket'] };
const platform = { tenant: 'platform', sha256: hashToken('platform-token'), components: ['*'] };
const tokens = [checkout, platform];

t.test('a bearer token is found by its sha256', async (t) => {
  t.equal(hashToken('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  t.equal(tokenOf('Bearer checkout-token', tokens), checkout);
  t.equal(tokenOf('bearer   platform-token ', tokens), platform);
  t.equal(tokenOf('Bearer checkout-token2', tokens), undefined);
  t.equal(tokenOf('Bearer ', tokens), undefined);
  t.equal(tokenOf('Basic checkout-token', tokens), undefined);
  t.equal(tokenOf('checkout-token', tokens), undefined);
  t.equal(tokenOf(undefined, tokens), undefined);
  t.equal(tokenOf('Bearer checkout-token', []), undefined);
  t.equal(tokenOf('Bearer checkout-token', [{ ...checkout, sha256: 'short' }]), undefined, 'a malformed hash never matches');
});

t.test('scope patterns: * matches any run of characters, the rest literally', async (t) => {
  t.ok(mayPublish(checkout, 'checkout-cart'));
  t.ok(mayPublish(checkout, 'checkout-'));
  t.ok(mayPublish(checkout, 'basket'));
  t.notOk(mayPublish(checkout, 'checkout'));
  t.notOk(mayPublish(checkout, 'my-checkout-cart'));
  t.notOk(mayPublish(checkout, 'basket-2'));
  t.notOk(mayPublish(checkout, 'search'));
  t.ok(mayPublish(platform, 'anything-at-all'));
  t.notOk(mayPublish({ ...checkout, components: ['a.c'] }, 'abc'), 'a dot is not a wildcard');
});
