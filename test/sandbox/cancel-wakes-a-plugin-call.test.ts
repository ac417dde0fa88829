import t from 'tap';
import { eventually } from '../cli/run-cli';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsUp } from './wait-for';

const NAME = 'hostile-plugin-cancel';

// A plugin call puts the isolate's thread to sleep until its answer. Cancelled while the call was
// out (its client went away), the execution used to leave that thread asleep until its call's time
// limit: the component's next request waited the whole limit. Cancelling wakes it at once.
t.test("an execution cancelled during a plugin call wakes its thread at once: the component's next request is answered", async (t) => {
  let pluginCalled = (): void => {};
  const inPluginCall = new Promise<void>((resolve) => (pluginCalled = resolve));
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.executionTimeoutMs = 3000;
    config.plugins = [
      {
        name: 'stall',
        description: 'never answers',
        func: () => {
          pluginCalled();
          return new Promise(() => {});
        },
      },
    ];
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const cancelled = async () =>
    valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_renders_total', { component: NAME, version: '1.0.0', tenant: 'mallory', outcome: 'EXECUTION_CANCELLED' });

  // The client gives up once the call is out, however long the version took to build.
  const client = new AbortController();
  const givenUp = fetch(`${url}${NAME}`, { signal: client.signal });
  await inPluginCall;
  client.abort();
  await t.rejects(givenUp, 'the client gives up during the plugin call');
  await t.resolves(eventually(async () => (await cancelled()) === 1, 5000, 10), 'its execution is cancelled');

  const next = await request(`${url}${NAME}?fast=true`);
  t.equal(next.status, 200, 'the next request is not held behind the sleeping thread');
  t.equal(next.body.html, '<p>fast</p>');
  await bystanderRenders(t, started, 'After', 'another tenant after the cancel');
});
