import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER } from './bystander';

const NAME = 'hostile-frame-strings';
const AWKWARD = '\ud800|\udfff|\u0000|\u2028|"|\\|\ud83d\ude00|';
const textOf = (chars: number) => AWKWARD.repeat(Math.ceil(chars / AWKWARD.length)).slice(0, chars);

/**
 * Frames between a host and the front go as JSON below 64 K characters of strings and as V8's
 * serialization above. Strings no UTF-8 can hold (lone surrogates) and characters that end or
 * break JSON must cross both ways exactly, in the same frame as another tenant's answer, which must
 * stay exactly its own.
 */
t.test('awkward strings on either side of the frame switch cross exactly, beside another tenant in one batch', async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('acme', BYSTANDER)]);
  for (const chars of [10, 65_000, 65_600, 70_000, 300_000]) {
    const batch = await request(`${started.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/vnd.oc.unrendered+json' },
      body: JSON.stringify({
        components: [
          { name: NAME, parameters: { chars } },
          { name: 'hello-world', version: '1.0.0', parameters: { name: 'Beside' } },
        ],
      }),
    });
    t.equal(batch.status, 200, `${chars}: the batch answers`);
    const [hostile, bystander] = batch.body as Array<{ status: number; response: { data?: { text: string; extras: unknown }; html?: string } }>;
    t.equal(hostile!.status, 200, `${chars}: the hostile item answers`);
    t.ok(hostile!.response.data!.text === textOf(chars), `${chars}: its text crossed exactly`);
    t.same(hostile!.response.data!.extras, { withToJSON: 'from toJSON' }, `${chars}: toJSON applied, Symbol keys dropped`);
    t.equal(bystander!.status, 200, `${chars}: the bystander answers`);
    t.match(bystander!.response.data ?? bystander!.response.html, bystander!.response.data ? { name: 'Beside' } : /Hello, Beside!/, `${chars}: the bystander's own answer`);
  }
});
