import t from 'tap';
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { CounterTally, HistogramTally } from '../../src/metrics/tallies';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVATIONS: Array<[string, number]> = [
  ['hello-world', 0],
  ['hello-world', 0.001], // on a bound: counted in it, as prom-client does
  ['hello-world', 0.0011],
  ['weather-badge', 0.05],
  ['hello-world', 7], // past every bound: +Inf only
  ['weather-badge', 1],
];

/** A registry fed by prom-client's own metrics, and one fed by tallies, with the same figures. */
function pair(): { reference: Registry; tallied: Registry; feed(): void } {
  const reference = new Registry();
  const counter = new Counter({ name: 'renders_total', help: 'Renders.', labelNames: ['component', 'outcome'], registers: [reference] });
  const histogram = new Histogram({ name: 'seconds', help: 'Time.', labelNames: ['component'], buckets: BUCKETS, registers: [reference] });
  const tallied = new Registry();
  const counterTally = new CounterTally({ name: 'renders_total', help: 'Renders.', labelNames: ['component', 'outcome'], registers: [tallied] });
  const histogramTally = new HistogramTally({ name: 'seconds', help: 'Time.', buckets: BUCKETS, registers: [tallied] });
  return {
    reference,
    tallied,
    feed() {
      for (const [component, seconds] of OBSERVATIONS) {
        const outcome = seconds > 1 ? 'EXECUTION_TIMEOUT' : 'ok';
        counter.inc({ component, outcome });
        histogram.observe({ component }, seconds);
        counterTally.cell({ component, outcome }).pending++;
        histogramTally.observe(histogramTally.cell({ component }), seconds);
      }
    },
  };
}

t.test('tallies expose exactly what prom-client exposes for the same counts and observations', async (t) => {
  const { reference, tallied, feed } = pair();
  feed();
  const text = await reference.metrics();
  t.match(text, 'seconds_bucket{le="0.001",component="hello-world"} 2');
  t.equal(await tallied.metrics(), text);
  // prom-client's own values carry `exemplar: null` (exemplars off): the same figures otherwise.
  const withoutExemplars = (json: unknown) => JSON.parse(JSON.stringify(json, (key, value: unknown) => (key === 'exemplar' ? undefined : value)));
  t.same(await tallied.getMetricsAsJSON(), withoutExemplars(await reference.getMetricsAsJSON()));
});

t.test('a scrape folds what was counted once: the next scrapes show the same totals until more is counted', async (t) => {
  const { reference, tallied, feed } = pair();
  feed();
  await tallied.metrics();
  t.equal(await tallied.metrics(), await reference.metrics());
  feed();
  t.equal(await tallied.metrics(), await reference.metrics());
  t.match(await tallied.metrics(), 'renders_total{component="hello-world",outcome="ok"} 6');
});

t.test('front threads summing their tallies get what they get summing prom-client metrics', async (t) => {
  const threads = [pair(), pair()];
  for (const thread of threads) thread.feed();
  threads[1]!.feed();
  const summed = async (registries: Registry[]) => AggregatorRegistry.aggregate(await Promise.all(registries.map((registry) => registry.getMetricsAsJSON()))).metrics();
  const reference = await summed(threads.map((thread) => thread.reference));
  t.match(reference, 'seconds_count{component="weather-badge"} 6');
  t.equal(await summed(threads.map((thread) => thread.tallied)), reference);
});

t.test('equal label sets share one cell, whoever asks for it', async (t) => {
  const registry = new Registry();
  const counter = new CounterTally({ name: 'c_total', help: 'C.', labelNames: ['a', 'b'], registers: [registry] });
  t.equal(counter.cell({ a: 'x', b: 'y' }), counter.cell({ a: 'x', b: 'y' }));
  t.not(counter.cell({ a: 'x', b: 'y' }), counter.cell({ a: 'y', b: 'x' }));
  const histogram = new HistogramTally({ name: 'h', help: 'H.', buckets: BUCKETS, registers: [registry] });
  t.equal(histogram.cell({ a: 'x' }), histogram.cell({ a: 'x' }));
});

t.test('a registry reset zeroes a histogram tally, whose cells keep counting for the registry', async (t) => {
  const registry = new Registry();
  const histogram = new HistogramTally({ name: 'h', help: 'H.', buckets: BUCKETS, registers: [registry] });
  const cell = histogram.cell({ component: 'x' });
  histogram.observe(cell, 0.5);
  registry.resetMetrics();
  t.match(await registry.metrics(), 'h_count{component="x"} 0');
  histogram.observe(cell, 0.5);
  t.match(await registry.metrics(), 'h_count{component="x"} 1');
});
