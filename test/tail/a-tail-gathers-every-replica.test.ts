import t from 'tap';
import { haproxyBinary, startHaproxy } from '../deploy/haproxy';
import { freePort } from '../helpers/free-port';
import { request, startRegistry } from '../helpers/start-registry';
import { replicaOfTwoTenants, replicaRecords, startReplica } from './replica-helpers';
import { LABS_TOKEN, openTail, SHOP_TOKEN, TWO_TENANTS_COMPONENTS, type Tail, type TailEvent } from './tail-helpers';

const binary = haproxyBinary();

/** An execution of `name` answered from outside, and its console lines: each replica is sent its own number of lines, which tells the replicas apart. */
const served = (events: TailEvent[]) =>
  events.filter((event) => event.type === 'execution').map(({ data }) => `${data.name} ${data.outcome.status} ${data.console.length}`).sort();

const replicaEvents = (tail: Tail) => tail.events.filter((event) => event.type === 'replica').map(({ data }) => data);

const until = async (check: () => Promise<boolean>, what: string): Promise<void> => {
  const giveUp = performance.now() + 60_000;
  while (!(await check())) {
    if (performance.now() > giveUp) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

t.test("a tail opened through the balancer sees every replica's executions, follows a replica that leaves and one that joins, and each tenant's its own only", async (t) => {
  const first = await startRegistry(t, TWO_TENANTS_COMPONENTS, replicaOfTwoTenants);
  const second = await startReplica(t, first.storagePath);
  const urls = [first.url, second.url];
  await until(async () => (await replicaRecords(first.storagePath)).size === 2, 'both replicas announced');
  const records = await replicaRecords(first.storagePath);
  t.same([...records.keys()].sort(), [...urls].sort(), 'each replica announced its own address');

  // Through HAProxy when it is installed (npm test installs it); else straight to a replica, which gathers the same way.
  let entry = first.url;
  if (binary) {
    const port = await freePort();
    await startHaproxy(t, binary, first.storagePath, port, urls.map((url) => Number(new URL(url).port)), 120);
    entry = `http://127.0.0.1:${port}/`;
  } else t.comment('haproxy is not installed: the tails are opened on a replica directly');
  const shop = await openTail(entry, SHOP_TOKEN);
  t.teardown(() => shop.close());
  const holder = shop.events[0]!.data.replica as string;
  const other = urls.find((url) => url !== holder)!;
  t.ok(urls.includes(holder), 'the open event names the replica that holds the tail');
  // The labs' tail on the same replica: the other one is to leave while both tails stay.
  const labs = await openTail(holder, LABS_TOKEN);
  t.teardown(() => labs.close());
  t.same([shop.status, labs.status], [200, 200]);
  await shop.waitFor((event) => event.type === 'replica' && event.data.state === 'joined');
  await labs.waitFor((event) => event.type === 'replica' && event.data.state === 'joined');
  t.same(replicaEvents(shop), [{ replica: records.get(other)!.id, state: 'joined' }], "the other replica's part joined");

  // One line per render on the first replica, two on the second: sent to each replica's own port.
  const lines = (url: string) => (url === first.url ? 1 : 2);
  for (const url of urls) {
    for (const name of ['shop-logger', 'labs-logger']) {
      t.equal((await request(`${url}${name}?lines=${lines(url)}`)).status, 200);
      t.equal((await request(`${url}${name}?lines=${lines(url)}&fail=true`)).status, 500);
    }
  }
  await until(async () => served(shop.events).length >= 4 && served(labs.events).length >= 4, 'four executions in each tail');
  t.same(served(shop.events), ['shop-logger 200 1', 'shop-logger 200 2', 'shop-logger 500 1', 'shop-logger 500 2'], "the shop's tail: its executions on both replicas");
  t.same(served(labs.events), ['labs-logger 200 1', 'labs-logger 200 2', 'labs-logger 500 1', 'labs-logger 500 2'], "the labs' tail: its own, on both replicas");

  // The replica that does not hold the tails leaves: its part ends, told; the tails stay open.
  const leaving = holder === first.url ? second.registry : first.registry;
  const leftEvents = shop.events.length;
  await leaving.close();
  await shop.waitFor((event) => event.type === 'replica' && event.data.state === 'left', leftEvents);
  t.same(
    replicaEvents(shop).filter((event) => event.state === 'left'),
    [{ replica: records.get(other)!.id, state: 'left', code: 'NOT_READY' }],
    'the replica that left is told, with why',
  );
  t.notOk((await replicaRecords(first.storagePath)).has(other), 'a replica that closes removes its record');

  // A replica joins: the tails find it at their next look at the records.
  const third = await startReplica(t, first.storagePath);
  const joinedId = async () => (await replicaRecords(first.storagePath)).get(third.url)?.id;
  await until(async () => (await joinedId()) !== undefined, 'the third replica announced');
  const thirdId = (await joinedId())!;
  for (const tail of [shop, labs]) await tail.waitFor((event) => event.type === 'replica' && event.data.state === 'joined' && event.data.replica === thirdId);
  const before = [served(shop.events).length, served(labs.events).length];
  t.equal((await request(`${third.url}shop-logger?lines=3`)).status, 200);
  t.equal((await request(`${third.url}labs-logger?lines=3`)).status, 200);
  t.equal((await request(`${holder}shop-logger?lines=4`)).status, 200);
  await until(async () => served(shop.events).length >= before[0]! + 2 && served(labs.events).length >= before[1]! + 1, 'the executions after the join');
  t.same(served(shop.events), ['shop-logger 200 1', 'shop-logger 200 2', 'shop-logger 200 3', 'shop-logger 200 4', 'shop-logger 500 1', 'shop-logger 500 2'], "the joined replica's executions reach the tail, and the holder's own still do");
  t.same(served(labs.events), ['labs-logger 200 1', 'labs-logger 200 2', 'labs-logger 200 3', 'labs-logger 500 1', 'labs-logger 500 2'], "the labs' tail still sees only its own");
  t.equal(shop.status, 200);
});
