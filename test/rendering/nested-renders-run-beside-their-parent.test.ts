import t from 'tap';
import { fixture, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { localCall } from '../../src/pipeline/nested-call';
import type { NestedPlan } from '../../src/sandbox/protocol';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';

// A child a parent asked for once through the front is leased with the parent's next executions:
// its host runs it beside the parent when it is warm there. Whichever way a call goes, its answer
// must be the same: the same input reaches the child, the same html (or error) reaches the parent.
const COMPONENTS = [fixture('leased-child'), fixture('leased-parent')];
const CASES = ['plain', 'typed', 'json', 'headers', 'invalid', 'failing', 'empty', 'twice'];
const ROUNDS = 3;

/** The wrapper's id is new at each render: the only part of an answer that may differ. */
const withoutIds = (html: unknown) => String(html).replace(/ id="[0-9a-f-]{36}"/g, ' id="…"');

const nestedVia = async (url: string, via: string) => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_nested_renders_total', { via });

/**
 * A case's first answer. A child is learnt, and leased with its parent's next executions, from a
 * render of it through the front that answered; the parent's first render also builds its sandbox,
 * which on a busy machine can take most of the request's time limit and leave its child too little:
 * such a render is sent again (nothing was learnt from it) until no time limit stopped it.
 */
async function firstAnswer(url: string, name: string): Promise<Awaited<ReturnType<typeof request>>> {
  for (;;) {
    const answer = await request(`${url}leased-parent?case=${name}`);
    if (answer.status !== 504 && !String(answer.body.html).includes('time limit')) return answer;
  }
}

for (const hosts of [1, 2]) {
  t.test(`every call answers the same through the front and beside its parent (${hosts} sandbox host${hosts > 1 ? 's' : ''})`, async (t) => {
    const { url } = await startRegistry(t, COMPONENTS, hosts === 2 ? TWO_HOSTS : undefined);
    for (const name of CASES) {
      const first = await firstAnswer(url, name);
      t.equal(first.status, 200, `${name}: the first render`);
      for (let round = 1; round <= ROUNDS; round++) {
        const again = await request(`${url}leased-parent?case=${name}`);
        t.equal(again.status, 200, `${name}, round ${round}`);
        t.equal(withoutIds(again.body.html), withoutIds(first.body.html), `${name}, round ${round}: the same answer`);
      }
    }
    // A nested render on the parent's host leaves the child warm there: from the second round on, leased calls ran beside it.
    t.ok((await nestedVia(url, 'host')) >= 10, 'calls a lease covers ran on the parent\'s host');
  });
}

t.test('what each call shows: the lease covers valid parameters; the front answers the others with its errors', async (t) => {
  const { url } = await startRegistry(t, COMPONENTS);
  const html = async (name: string) => (await request(`${url}leased-parent?case=${name}`)).body.html as string;
  await firstAnswer(url, 'typed');
  const front = await nestedVia(url, 'front');
  const typed = await html('typed');
  t.equal(await nestedVia(url, 'front'), front, 'the leased call did not go through the front');
  t.match(typed, /^<section><oc-component href="http:\/\/127\.0\.0\.1:\d+\/leased-child\/1\.x\?who=Ada&amp;times=3&amp;loud=true&amp;mood=calm&amp;extra=7" data-hash="[0-9a-f]+" id="[0-9a-f-]{36}" data-name="leased-child" data-rendered="true" data-version="1\.0\.0"><b>/);
  t.match(typed, /"params":\{"who":"Ada","times":3,"loud":true,"mood":"calm","extra":7\}/);
  t.match(typed, /<script>window\.oc=window\.oc\|\|\{\};oc\.renderedComponents=oc\.renderedComponents\|\|\{\};oc\.renderedComponents\["leased-child"\]="1\.0\.0";<\/script><\/oc-component><\/section>$/);

  await html('invalid');
  const invalid = await html('invalid');
  t.equal(
    invalid,
    '<section>Error(Parameter "times" must be a number.) | Error(Parameter "mood" must be one of: calm, glad.) | Error(Parameter "who" must be a single string, given once.)</section>',
  );
  await html('headers');
  const headers = await html('headers');
  t.match(headers, /"acceptLanguage":\[\{"code":"de","quality":1\}\]/, 'the parent\'s accept-language reaches the child');
  t.match(headers, /"cookie":"site=1"/, 'no component cookie passes from a parent to its child');
  t.notMatch(headers, /forged/);
  await html('failing');
  t.equal(await html('failing'), '<section>Error(Component "leased-child" failed: Unlucky)</section>');
  await html('empty');
  t.match(await html('empty'), /^<section><oc-component href="[^"]+\/leased-child\?times=0&amp;who=world&amp;loud=false" [^>]+><script>[^<]+<\/script><\/oc-component><\/section>$/, 'a null model renders nothing inside the wrapper');
});

// What the front would refuse, a host never runs itself: it leaves the call to the front, which answers its error.
t.test('a host runs a leased call itself only with parameters the front would accept', async (t) => {
  const plan: NestedPlan = {
    id: 1,
    name: 'child',
    requested: '',
    version: '1.0.0',
    key: 'child@1.0.0#k',
    component: 'child',
    templateKey: 'k',
    container: true,
    renderInfo: false,
    // Read as a descriptor is: TypeScript takes a literal `constructor` key for the object's own.
    parameters: JSON.parse('{"constructor":{"type":"string","mandatory":true},"size":{"type":"number","default":2}}') as NestedPlan['parameters'],
    timeoutMs: 5000,
  };
  const call = (parameters: unknown, extra: Record<string, unknown> = {}) => localCall([plan], [false], JSON.stringify({ name: 'child', parameters, baseUrl: 'http://r/', ...extra }));
  t.equal(call({}), undefined, 'a mandatory parameter missing, even one named like a property of every object');
  t.equal(call({ constructor: 'x', size: 'big' }), undefined, 'a number that is not one');
  t.equal(call({ constructor: 'x', size: null }), undefined, 'a value that is not single');
  t.equal(call({ constructor: 'x' }, { version: '1.x' }), undefined, 'a version expression the plan was not made for');
  t.equal(localCall([plan], [true], JSON.stringify({ name: 'child', parameters: { constructor: 'x' }, baseUrl: 'http://r/' })), undefined, 'a plan already used');
  const valid = call({ constructor: 'x', size: '3', other: true });
  t.equal(valid?.href, 'http://r/child?constructor=x&size=3&other=true');
  t.same(JSON.parse(valid!.input).params, { constructor: 'x', size: 3, other: true });
});

// The host writes the refusal itself, from the request's bound the lease carries: the parent reads the front's very sentence.
t.test("a child's answer past the request's nested bound is refused beside its parent as through the front", async (t) => {
  // Between the answer of a child with a null model and one with a model.
  const BOUND = 200;
  const { url } = await startRegistry(t, COMPONENTS, (config) => {
    config.limits.maxNestedBytesPerRequest = BOUND;
  });
  const refused = `<section>Error(The nested answers of one request may bring at most ${BOUND} characters through the registry.)</section>`;
  const front = await firstAnswer(url, 'plain');
  t.same([front.status, front.body.html], [200, refused], 'through the front');
  // Answered within the bound, the same call (no version expression) is learnt: the next is leased.
  t.equal((await request(`${url}leased-parent?case=empty`)).status, 200);
  const host = await nestedVia(url, 'host');
  const beside = await request(`${url}leased-parent?case=plain`);
  t.same([beside.status, beside.body.html], [200, refused], 'beside the parent');
  t.equal(await nestedVia(url, 'host'), host + 1, "the child ran on its parent's host");
});
