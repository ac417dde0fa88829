import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from '../sandbox/bystander';

const NAME = 'hostile-header-bytes';
const PREFIX = `Component "${NAME}" failed: `;

/**
 * setHeader refuses line breaks, but HTTP refuses more than that in a header's value: any control
 * character but tab, DEL, and anything past Latin-1. Such a value must be the component's own
 * failure, answered as the errors table says (decisions §2, §8: "the HTTP response stays
 * well-formed"), and a batch still answers 200 with its array (§5).
 */
t.test('a header value HTTP cannot carry is the component’s failure, answered with a coded body', async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('acme', BYSTANDER)]);
  for (const attack of ['nul', 'del', 'escape', 'euro', 'surrogate', 'separator']) {
    const answer = await request(`${started.url}${NAME}?attack=${attack}`);
    t.equal(answer.status, 500, `${attack}: status`);
    t.match(answer.body, { code: 'GENERIC_ERROR', name: NAME, requestVersion: '' }, `${attack}: a coded error body (it was ${answer.text.slice(0, 200)})`);
    t.ok(typeof answer.body.error === 'string' && answer.body.error.startsWith(PREFIX), `${attack}: the component is named in the sentence`);

    const batch = await request(started.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ components: [{ name: NAME, parameters: { attack } }] }),
    });
    t.equal(batch.status, 200, `${attack}: a batch of one answers 200 (it answered ${batch.text.slice(0, 200)})`);
    t.match(batch.body, [{ status: 500, response: { code: 'GENERIC_ERROR', name: NAME } }], `${attack}: the batch's item is the component's failure`);
  }
  await bystanderRenders(t, started, 'After', 'another tenant after');
});

t.test('a component sets at most 50 headers, whatever their names', async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('acme', BYSTANDER)]);
  const answer = await request(`${started.url}${NAME}?attack=count`);
  t.equal(answer.status, 500, `the 51st header ("constructor") is refused (the answer was ${answer.status} with ${[...answer.headers.keys()].filter((name) => name.startsWith('x-h') || name === 'constructor').length} of its headers)`);
  t.same(answer.body, { code: 'GENERIC_ERROR', error: `${PREFIX}A component may set at most 50 headers.`, name: NAME, requestVersion: '' });
  await bystanderRenders(t, started, 'After', 'another tenant after');
});
