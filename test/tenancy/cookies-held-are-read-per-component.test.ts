import t from 'tap';
import { cookiesHeldBy } from '../../src/pipeline/component-cookies';

t.test("the cookies a visitor holds of one component are read from its Cookie header, with the bytes each takes there", async (t) => {
  const cookie = 'site=1; oc.shop.session=abc; oc.shop-cart.items=3;oc.shop.theme=dark; oc.other.session=x; oc.shop.session=second; oc.shop.flag';
  t.same(cookiesHeldBy('shop', { cookie }), [
    ['session', 'oc.shop.session=abc'.length + 'oc.shop.session=second'.length],
    ['theme', 'oc.shop.theme=dark'.length],
    ['flag', 'oc.shop.flag'.length],
  ]);
  t.same(cookiesHeldBy('shop-cart', { cookie }), [['items', 'oc.shop-cart.items=3'.length]], 'a component whose name starts like another\'s holds only its own');
  t.same(cookiesHeldBy('shop', { cookie: ['oc.shop.a=1', 'oc.shop.b=2'] }), [
    ['a', 11],
    ['b', 11],
  ]);
  t.same(cookiesHeldBy('shop', {}), []);
  t.same(cookiesHeldBy('shop', { cookie: 'site=1' }), []);
  // A name the header spells as an object's property is a name like any other.
  t.same(cookiesHeldBy('shop', { cookie: 'oc.shop.__proto__=1' }), [['__proto__', 'oc.shop.__proto__=1'.length]]);
});
