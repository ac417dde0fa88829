import t from 'tap';
import type { RequestHeaders } from '../../src/pipeline/call-values';
import { BatchInputParts, executionInput } from '../../src/pipeline/execution-input';

const inputOf = (shared: BatchInputParts | undefined, headers: RequestHeaders, cookieScope: string, given: Record<string, unknown> = {}) =>
  JSON.parse(
    executionInput({
      cookieScope,
      mode: 'rendered',
      params: {},
      given,
      headers,
      baseUrl: 'http://127.0.0.1/',
      staticPath: `http://127.0.0.1/${cookieScope}/1.0.0/static/`,
      tenantCookies: { bytes: 0, names: 0 },
      shared,
    }),
  ) as { requestHeaders: RequestHeaders; heldCookies: unknown; acceptLanguage: unknown };

t.test("a batch's shared parts give each component its own cookies, each language its own, and never another request's headers", async (t) => {
  const page: RequestHeaders = { cookie: 'site=1; oc.acme-card.session=visitor-secret; oc.beta-card.id=7', 'accept-language': 'en' };
  const other: RequestHeaders = { cookie: 'oc.acme-card.session=someone-else', 'accept-language': 'en' };
  const shared = new BatchInputParts();
  const alone = inputOf(undefined, page, 'acme-card');
  t.same(inputOf(shared, page, 'acme-card'), alone, 'an item reads what it would read alone');
  t.same(inputOf(shared, page, 'beta-card').requestHeaders, { cookie: 'site=1; id=7', 'accept-language': 'en' }, "another component's item gets its own cookies");
  t.same(inputOf(shared, page, 'acme-card', { __ocAcceptLanguage: 'fr' }).acceptLanguage, [{ code: 'fr', quality: 1 }], "an item's own language");
  t.same(inputOf(shared, page, 'acme-card'), alone, 'the first again: the same input');
  t.same(inputOf(shared, other, 'acme-card').requestHeaders, { cookie: 'session=someone-else', 'accept-language': 'en' }, 'headers of another request are read, not the part written from the first');
});
