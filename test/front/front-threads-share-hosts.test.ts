import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FrontThreads } from '../../src/fronts/front-threads';
import { GREETING, packed, publishTokens, put } from '../publish/publish-helpers';
import { fixture, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { until } from '../sandbox/wait-for';
import { freshGet as freshConnectionGet } from '../helpers/fresh-get';
import { defaultConfig, type RegistryConfig } from '../../src/config/config';
import { createRegistry } from '../../src/registry';
import { MainTails } from '../../src/tail/main-tails';
import { TailHub } from '../../src/tail/tail-hub';

/** Two front threads on the registry's port, over two sandbox hosts, with the greeters' token. */
const TWO_FRONTS = (config: RegistryConfig): void => {
  TWO_HOSTS(config);
  config.limits.frontThreads = 2;
  config.publishTokens = publishTokens();
};

/** A GET on a connection of its own, its JSON body read. */
async function freshGet(url: string): Promise<{ status: number; body: { version?: string; html?: string } }> {
  const { status, text } = await freshConnectionGet(url);
  return { status, body: JSON.parse(text) };
}

const GETS = 40;
const requestsCounted = (metrics: string): number =>
  Number(/^tessera_http_requests_total\{method="GET",route="\/:name",status="200"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);

t.test('front threads share the port and the hosts: a publish through one is served by all, /metrics sums them', async (t) => {
  const { url, registry } = await startRegistry(t, [], TWO_FRONTS);
  const published = await put(url, 'publish-greeting/1.0.0', await packed(GREETING));
  t.equal(published.status, 201);

  // Each on a new connection, so both threads answer some: every one already knows the version.
  const answers = await Promise.all(Array.from({ length: GETS }, () => freshGet(`${url}publish-greeting?name=Ada`)));
  t.same(
    answers.map(({ status, body }) => [status, body.version, /<p class="greeting">Hello, Ada!<\/p>/.test(body.html ?? '')]),
    Array.from({ length: GETS }, () => [200, '1.0.0', true]),
  );

  const summed = requestsCounted((await request(`${url}metrics`)).text);
  const mainThreadOnly = requestsCounted(await registry.metrics.registry.metrics());
  t.equal(summed, GETS, '/metrics counts the answers of every front thread');
  t.ok(mainThreadOnly > 0 && mainThreadOnly < GETS, `the main thread answered ${mainThreadOnly} of ${GETS}, the other thread the rest`);
  t.match((await request(`${url}metrics`)).text, /^tessera_sandbox_hosts 2$/m, 'the hosts are counted once, not once per thread');
});

t.test('a host that dies is replaced for every front thread', async (t) => {
  const { url, registry } = await startRegistry(t, [], TWO_FRONTS);
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING))).status, 201);
  t.equal((await Promise.all(Array.from({ length: 10 }, () => freshGet(`${url}publish-greeting?name=Bo`)))).filter((a) => a.status === 200).length, 10);

  const before = registry.pool.hostProcessIds();
  for (const pid of before) process.kill(pid, 'SIGKILL');
  await until(() => registry.pool.stats().hosts === 2 && registry.pool.hostProcessIds().every((pid) => !before.includes(pid)));

  // The other thread connects to the new hosts as they are announced; give it the moment that takes.
  await until(async () => (await Promise.all(Array.from({ length: 10 }, () => freshGet(`${url}publish-greeting?name=Cy`)))).every((a) => a.status === 200));
  const after = await Promise.all(Array.from({ length: GETS }, () => freshGet(`${url}publish-greeting?name=Cy`)));
  t.same(
    after.map(({ status }) => status),
    Array.from({ length: GETS }, () => 200),
    'every front thread renders on the replacement hosts',
  );
});

t.test('hosts recycled under the requests of every front thread lose none of them', async (t) => {
  // Below the resident memory of any host (a configuration file could not say so: 64 MB at least):
  // a host is recycled at its first heartbeat once it holds a warm isolate, while both threads keep
  // sending it executions, some of which reach it as it drains.
  const { url } = await startRegistry(t, [], (config) => {
    TWO_FRONTS(config);
    config.limits.hostMemoryMb = 32;
  });
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING))).status, 201);
  const restarts = async () => Number(/^tessera_sandbox_host_restarts_total\{reason="memory"\} (\d+)$/m.exec((await request(`${url}metrics`)).text)?.[1] ?? 0);

  let answered = 0;
  const failed: unknown[] = [];
  for (let round = 1; (await restarts()) < 2; round++) {
    if (round > 500) {
      t.fail('two hosts were recycled for their memory within 500 rounds');
      break;
    }
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => freshGet(`${url}publish-greeting?name=N${index}`)));
    answered += answers.length;
    failed.push(...answers.filter((answer) => answer.status !== 200));
  }
  t.same(failed, [], `${answered} requests over 2 recycles, all answered 200`);
});

t.test('a front thread starts whatever the order in which hosts were announced', async (t) => {
  // Slot 1's host may be ready before slot 0's: the hosts a thread starts with must not have a hole.
  const { registry, storagePath } = await startRegistry(t, []);
  const config = defaultConfig();
  Object.assign(config, { port: 0, storagePath, pollIntervalSeconds: 0 });
  const threads = new FrontThreads(
    {
      config,
      catalog: registry.catalog,
      tenants: registry.tenants,
      metrics: registry.metrics,
      pool: registry.pool,
      tails: new MainTails(new TailHub(), 1),
      lastErrors: registry.lastErrors,
      publish: async () => ({ ok: false, fault: 'no publish in this test' }),
      logger: false,
      log: (message) => t.fail(message),
    },
    1,
  );
  threads.announce({ slot: 1, address: path.join(os.tmpdir(), 'tessera-no-such-host.sock'), pid: 0 });
  await threads.start(0);
  t.pass('the thread listens');
  await threads.close();
});

t.test("plugins run in the main thread, for every front thread's components", async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-plugins')], (config) => {
    TWO_FRONTS(config);
    config.plugins = [
      // A value that cannot be copied between threads (it holds a function): its JSON crosses, as in one thread.
      { name: 'shout', description: 'upper-cases text', func: (text) => ({ toJSON: () => String(text).toUpperCase() }) },
      { name: 'slowAdd', description: 'adds after a moment', func: (a, b) => new Promise((resolve) => setTimeout(() => resolve(Number(a) + Number(b)), 20)) },
      { name: 'failing', description: 'always throws', func: () => Promise.reject(new Error('plugin broke')) },
    ];
  });
  const answers = await Promise.all(Array.from({ length: GETS }, () => freshGet(`${url}rendering-plugins`)));
  t.same(
    answers.map((answer) => [answer.status, answer.body.html]),
    Array.from({ length: GETS }, () => [200, '<p>seen=failing,shout,slowAdd secret=undefined shout=HELLO sum=5 failure=plugin broke</p>']),
  );
});

t.test('admission limits too small to share out keep the registry on one thread, where they hold exactly', async (t) => {
  const { url, registry } = await startRegistry(t, [], (config) => {
    TWO_FRONTS(config);
    config.limits.maxConcurrentPerComponent = 2;
  });
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING))).status, 201);
  const answers = await Promise.all(Array.from({ length: 10 }, () => freshGet(`${url}publish-greeting?name=Di`)));
  t.same(
    answers.map((answer) => answer.status),
    Array.from({ length: 10 }, () => 200),
  );
  t.equal(requestsCounted(await registry.metrics.registry.metrics()), 10, 'the main thread answered every request');
});

t.test('a registry with front threads refuses a port another registry serves, which keeps all its connections', async (t) => {
  const first = await startRegistry(t, [], TWO_FRONTS);
  t.equal((await put(first.url, 'publish-greeting/1.0.0', await packed(GREETING))).status, 201);
  const port = Number(new URL(first.url).port);

  // SO_REUSEPORT would have let it listen beside the first one, each taking about half of the new connections.
  const config = defaultConfig();
  TWO_FRONTS(config);
  config.port = port;
  // A storage of its own, where the greeting was never published: a connection it took would answer 404.
  config.storagePath = await mkdtemp(path.join(os.tmpdir(), 'tessera-test-'));
  config.pollIntervalSeconds = 0;
  const registry = await createRegistry(config);
  t.teardown(async () => {
    await registry.close();
    await rm(config.storagePath, { recursive: true, force: true });
  });
  const second = await registry.listen().then(
    () => 'listening',
    (error: NodeJS.ErrnoException) => error.code,
  );
  t.equal(second, 'EADDRINUSE');

  const answers = await Promise.all(Array.from({ length: GETS }, () => freshGet(`${first.url}publish-greeting?name=Ada`)));
  t.same(
    answers.map(({ status }) => status),
    Array.from({ length: GETS }, () => 200),
    'every new connection reaches the first registry, which knows the version',
  );
});
