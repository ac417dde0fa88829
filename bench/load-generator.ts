/**
 * Child-process entry: runs one autocannon load and sends back its summary, so that the load
 * generator never competes with the server under test for an event loop.
 */
import autocannon from 'autocannon';
import type { LoadOptions, LoadResult } from './load-options';

process.once('message', (options: LoadOptions) => {
  autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    amount: options.amount,
    method: options.method,
    headers: options.body === undefined ? undefined : { 'content-type': 'application/json' },
    body: options.body,
  }).then(
    (result) => {
      const summary: LoadResult = {
        requestsPerSecond: result.requests.total / result.duration,
        seconds: result.duration,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        maxMs: result.latency.max,
        requests: result.requests.total,
        failures: result.errors + result.timeouts + result.non2xx,
      };
      process.send!(summary, () => process.disconnect());
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
