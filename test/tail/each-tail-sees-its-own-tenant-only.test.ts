import t from 'tap';
import { request, startRegistry } from '../helpers/start-registry';
import { ADMIN_TOKEN, LABS_TOKEN, openTail, SHOP_TOKEN, stable, twoTenants, TWO_TENANTS_COMPONENTS, type Tail, type TailEvent } from './tail-helpers';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
// What a visitor's browser sends: no tail ever shows it.
const VISITOR = { cookie: 'session=visitor-cookie-secret', authorization: 'Bearer visitor-authorization-secret' };

const last = (name: string) => (event: TailEvent) => event.type === 'execution' && event.data.name === name && event.data.via === 'get';

t.test("two tenants and the administrator each see their own executions: another tenant's nested component as its outcome alone", async (t) => {
  const { url } = await startRegistry(t, TWO_TENANTS_COMPONENTS, twoTenants);
  const shop = await openTail(url, SHOP_TOKEN);
  const labs = await openTail(url, LABS_TOKEN);
  const admin = await openTail(url, ADMIN_TOKEN);
  for (const tail of [shop, labs, admin]) t.teardown(() => tail.close());
  t.same([shop.status, labs.status, admin.status], [200, 200, 200]);
  t.match(shop.headers['content-type'], /^text\/event-stream/);
  t.same(shop.events[0], { type: 'open', data: { tenant: 'shop', pattern: null, replica: url } });
  t.same(admin.events[0], { type: 'open', data: { tenant: '*', pattern: null, replica: url } });

  const renders = [
    () => request(`${url}shop-logger?lines=2`, { headers: VISITOR }),
    () => request(`${url}labs-logger?fail=true`, { headers: VISITOR }),
    () => request(`${url}shop-nester?child=labs-logger`, { headers: { ...VISITOR, traceparent: `00-${TRACE}-00f067aa0ba902b7-01` } }),
    () => request(`${url}labs-nester?child=shop-logger&childFails=true`, { headers: VISITOR }),
  ];
  // One at a time: each tail's events come in a known order.
  const statuses: number[] = [];
  for (const render of renders) statuses.push((await render()).status);
  t.same(statuses, [200, 500, 200, 200]);
  // The last render's root is the last event of the labs' and the administrator's tails; the shop's
  // sees labs-nester only as the caller of its own component, whose failure is its last event.
  await Promise.all([labs.waitFor(last('labs-nester')), admin.waitFor(last('labs-nester'))]);
  await shop.waitFor((event) => event.type === 'execution' && event.data.name === 'shop-logger' && event.data.via === 'nested' && event.data.outcome.status === 500);

  t.same(stable(shop.events), [
    { name: 'shop-logger', version: '1.0.0', via: 'get', outcome: { status: 200 }, console: [line('shop-logger', 0), line('shop-logger', 1)] },
    { name: 'labs-logger', version: '1.0.0', via: 'nested', foreign: true, outcome: { status: 200 }, caller: 'shop-nester' },
    {
      name: 'shop-nester',
      version: '1.0.0',
      via: 'get',
      outcome: { status: 200 },
      console: [
        { level: 'log', message: 'shop-nester@1.0.0 asks for labs-logger' },
        { level: 'log', message: 'shop-nester@1.0.0 got its child' },
      ],
    },
    {
      name: 'shop-logger',
      version: '1.0.0',
      via: 'nested',
      outcome: { status: 500, code: 'GENERIC_ERROR', message: 'Component "shop-logger" failed: shop-logger@1.0.0 failed on purpose' },
      console: [line('shop-logger', 0)],
      exception: { message: 'shop-logger@1.0.0 failed on purpose', frames: true },
    },
  ]);
  t.same(stable(labs.events), [
    {
      name: 'labs-logger',
      version: '1.0.0',
      via: 'get',
      outcome: { status: 500, code: 'GENERIC_ERROR', message: 'Component "labs-logger" failed: labs-logger@1.0.0 failed on purpose' },
      console: [line('labs-logger', 0), line('labs-logger', 1)],
      exception: { message: 'labs-logger@1.0.0 failed on purpose', frames: true },
    },
    { name: 'labs-logger', version: '1.0.0', via: 'nested', outcome: { status: 200 }, console: [line('labs-logger', 0)] },
    { name: 'shop-logger', version: '1.0.0', via: 'nested', foreign: true, outcome: { status: 500, code: 'GENERIC_ERROR' }, caller: 'labs-nester' },
    {
      name: 'labs-nester',
      version: '1.0.0',
      via: 'get',
      outcome: { status: 200 },
      console: [
        { level: 'log', message: 'labs-nester@1.0.0 asks for shop-logger' },
        { level: 'warn', message: 'labs-nester@1.0.0 saw its child fail' },
      ],
    },
  ]);
  // The administrator sees every execution once, in full, with its tenant and its caller.
  t.same(
    stable(admin.events).map((event: any) => [event.tenant, event.name, event.via, event.caller ?? '', event.outcome.status, (event.console ?? []).length]),
    [
      ['shop', 'shop-logger', 'get', '', 200, 2],
      ['labs', 'labs-logger', 'get', '', 500, 2],
      ['labs', 'labs-logger', 'nested', 'shop-nester', 200, 1],
      ['shop', 'shop-nester', 'get', '', 200, 2],
      ['shop', 'shop-logger', 'nested', 'labs-nester', 500, 1],
      ['labs', 'labs-nester', 'get', '', 200, 2],
    ],
  );

  // The frames of an exception are the component's own code only, mapped to its sources by its package's source map.
  const thrown = labs.events.find((event) => event.data.exception)!.data.exception;
  t.same(thrown.stack, ['at failOnPurpose (src/entry.server.ts:7:9)', 'at Object.handler (src/entry.server.ts:20:31)'], 'own frames only');

  // A request's trace id, taken from its traceparent, is its nested render's too; one is made for a request without.
  const traced = admin.events.filter((event) => event.data.traceId === TRACE).map((event) => event.data.name);
  t.same(traced, ['labs-logger', 'shop-nester']);
  const made = admin.events.filter((event) => event.type === 'execution' && event.data.name.endsWith('nester') && event.data.traceId !== TRACE)[0]!.data.traceId;
  t.match(made, /^[0-9a-f]{32}$/);
  t.same(admin.events.filter((event) => event.data.traceId === made).map((event) => event.data.name), ['shop-logger', 'labs-nester']);
  for (const event of admin.events.filter((event) => event.type === 'execution')) {
    t.ok(event.data.durationMs >= 0 && event.data.cpuMs >= 0, 'durations and CPU time are numbers');
  }

  // Nothing of a visitor's request reaches any tail; nor another tenant's lines, messages or exceptions.
  const everything = JSON.stringify([shop.events, labs.events, admin.events]);
  t.notOk(everything.includes('visitor-'), "no visitor's cookie or Authorization header");
  for (const [tail, own, other] of [[shop, 'shop', 'labs'], [labs, 'labs', 'shop']] as const) {
    const text = JSON.stringify(tail.events);
    t.notOk(text.includes(`${other}-logger line`) || text.includes(`${other}-logger@1.0.0 failed`), `no ${other}' line nor exception in the ${own}'s tail`);
  }
});

t.test('filters: a pattern within the tenant, outcomes, statuses and sampling', async (t) => {
  const { url } = await startRegistry(t, TWO_TENANTS_COMPONENTS, twoTenants);
  const errors = await openTail(url, SHOP_TOKEN, '?pattern=shop-log*&outcome=error');
  const fiveHundreds = await openTail(url, SHOP_TOKEN, '?status=5xx,404');
  const oks = await openTail(url, ADMIN_TOKEN, '?outcome=ok&pattern=labs-*');
  const everything = await openTail(url, SHOP_TOKEN, '?sample=1');
  for (const tail of [errors, fiveHundreds, oks, everything]) t.teardown(() => tail.close());
  t.same(errors.events[0]!.data.pattern, 'shop-log*');
  for (const path of ['shop-logger', 'shop-logger?fail=true', 'shop-nester?child=shop-logger', 'labs-logger', 'shop-nester?child=shop-logger&childFails=true']) {
    await request(`${url}${path}`);
  }
  await everything.waitFor((event) => event.type === 'execution' && event.data.via === 'get' && event.data.name === 'shop-nester' && event.data.console?.[1]?.level === 'warn');
  const summary = (tail: Tail) => stable(tail.events).map((event: any) => `${event.name} ${event.via} ${event.outcome.status}`);
  t.same(summary(everything), [
    'shop-logger get 200',
    'shop-logger get 500',
    'shop-logger nested 200',
    'shop-nester get 200',
    'shop-logger nested 500',
    'shop-nester get 200',
  ]);
  t.same(summary(errors), ['shop-logger get 500', 'shop-logger nested 500']);
  t.same(summary(fiveHundreds), ['shop-logger get 500', 'shop-logger nested 500']);
  await oks.waitFor((event) => event.data.name === 'labs-logger');
  t.same(summary(oks), ['labs-logger get 200']);
});

const line = (name: string, index: number) => ({ level: 'log', message: `${name}@1.0.0 line ${index}` });
