import t from 'tap';
import { memoryReducingCollection } from '../../src/front/idle-memory';
import type { RequestHeaders } from '../../src/pipeline/call-values';
import { executionInput, type ExecutionRequest } from '../../src/pipeline/execution-input';

const requestOf = (headers: RequestHeaders, cookieScope = 'acme-card'): ExecutionRequest => ({
  cookieScope,
  mode: 'rendered',
  params: {},
  given: {},
  headers,
  baseUrl: 'http://127.0.0.1/',
  staticPath: `http://127.0.0.1/${cookieScope}/1.0.0/static/`,
  tenantCookies: { bytes: 0, names: 0 },
});

t.test("the items built in one turn share their headers' part; once the turn ends, the visitor's headers are let go", async (t) => {
  let headers: RequestHeaders | undefined = { cookie: 'site=1; oc.acme-card.session=visitor-secret; oc.beta-card.id=7' };
  const held = new WeakRef(headers);
  const card = JSON.parse(executionInput(requestOf(headers)));
  t.same(card.requestHeaders, { cookie: 'site=1; session=visitor-secret' });
  t.same(card.heldCookies, [['session', 'oc.acme-card.session=visitor-secret'.length]]);
  t.same(JSON.parse(executionInput(requestOf(headers, 'beta-card'))).requestHeaders, { cookie: 'site=1; id=7' }, "another scope's item gets its own part");
  t.same(JSON.parse(executionInput(requestOf(headers))), card, 'the first scope again: the same input');
  headers = undefined;
  await new Promise((resolve) => setImmediate(resolve));
  memoryReducingCollection();
  t.equal(held.deref(), undefined, 'no part of the registry holds the headers once the turn ended');
});

t.test('headers changed in place between two turns are read again', async (t) => {
  const headers: RequestHeaders = { cookie: 'oc.acme-card.theme=dark' };
  t.same(JSON.parse(executionInput(requestOf(headers))).requestHeaders, { cookie: 'theme=dark' });
  await new Promise((resolve) => setImmediate(resolve));
  headers['cookie'] = 'oc.acme-card.theme=light';
  t.same(JSON.parse(executionInput(requestOf(headers))).requestHeaders, { cookie: 'theme=light' });
});
