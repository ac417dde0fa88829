import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const PUBLISHED = ['1.0.0', '1.2.3', '1.2.5', '1.3.0', '2.0.0', '2.1.0-beta.1'];
const ID = /id="[0-9a-f-]{36}"/;

t.test('version expressions resolve per decisions §3, in rendered bodies', async (t) => {
  const { registry, url } = await startRegistry(
    t,
    PUBLISHED.map((v) => fixture(`core-versions-${v}`)),
    (config) => {
      config.limits.sandboxHosts = 1;
    },
  );
  const hashOf = (name: string, version: string) => registry.catalog.resolve(name, version).templateKey;
  const script = (name: string, version: string) =>
    `<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["${name}"]="${version}";</script>`;

  const cases: Array<[string, string]> = [
    ['', '2.0.0'],
    ['latest', '2.0.0'],
    ['1.2.3', '1.2.3'],
    ['~1.2.3', '1.2.5'],
    ['^1.2.3', '1.3.0'],
    ['1', '1.3.0'],
    ['1.2', '1.2.5'],
    ['1.x', '1.3.0'],
    ['1.X.X', '1.3.0'],
    ['1.2.x', '1.2.5'],
    ['2', '2.0.0'],
    ['2.1.0-beta.1', '2.1.0-beta.1'],
  ];
  for (const [expression, resolved] of cases) {
    const href = `${url}core-versions${expression ? `/${expression}` : ''}`;
    const { status, body } = await request(href);
    t.equal(status, 200, `"${expression}" answers 200`);
    t.match(body.html, ID);
    t.same(
      { ...body, html: body.html.replace(ID, 'id="ID"') },
      {
        href,
        name: 'core-versions',
        version: resolved,
        requestVersion: expression,
        html:
          `<oc-component href="${href}" data-hash="${hashOf('core-versions', resolved)}" id="ID" data-name="core-versions" ` +
          `data-rendered="true" data-version="${resolved}"><p>version ${resolved}</p>${script('core-versions', resolved)}</oc-component>`,
        type: 'oc-component',
        renderMode: 'rendered',
        baseUrl: url,
      },
      `"${expression}" resolves to ${resolved}`,
    );
  }
});

t.test('a component published only as a prerelease', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-prerelease-only')], (config) => {
    config.limits.sandboxHosts = 1;
  });

  const latest = await request(`${url}core-prerelease`);
  t.equal(latest.status, 200);
  t.equal(latest.body.version, '0.1.0-beta.1', 'the latest is the prerelease when no stable version exists');
  t.equal(latest.body.requestVersion, '');
  t.match(latest.body.html, /data-version="0\.1\.0-beta\.1"><p>prerelease<\/p>/);

  const alias = await request(`${url}core-prerelease/latest`);
  t.equal(alias.body.version, '0.1.0-beta.1');
  t.equal(alias.body.requestVersion, 'latest');

  const range = await request(`${url}core-prerelease/0.x`);
  t.equal(range.status, 404, 'a range does not pick a prerelease');
  t.same(range.body, {
    code: 'NOT_FOUND',
    error: 'Component "core-prerelease" has no version matching "0.x"; published versions: 0.1.0-beta.1.',
    name: 'core-prerelease',
    requestVersion: '0.x',
  });
});

t.test('versions that match nothing and unknown components are 404 NOT_FOUND', async (t) => {
  const { url } = await startRegistry(
    t,
    PUBLISHED.map((v) => fixture(`core-versions-${v}`)),
    (config) => {
      config.limits.sandboxHosts = 1;
    },
  );
  const listed = 'published versions: 1.0.0, 1.2.3, 1.2.5, 1.3.0, 2.0.0, 2.1.0-beta.1.';
  for (const expression of ['3', '1.2.4', '~1.4.0', '0.x', 'not-a-range']) {
    const { status, body } = await request(`${url}core-versions/${expression}`);
    t.equal(status, 404, `"${expression}" matches nothing`);
    t.same(body, {
      code: 'NOT_FOUND',
      error: `Component "core-versions" has no version matching "${expression}"; ${listed}`,
      name: 'core-versions',
      requestVersion: expression,
    });
  }

  for (const path of ['core-unknown', 'core-unknown/1.0.0']) {
    const { status, body } = await request(`${url}${path}`);
    t.equal(status, 404);
    t.same(body, {
      code: 'NOT_FOUND',
      error: 'Component "core-unknown" is not published on this registry.',
      name: 'core-unknown',
      requestVersion: path.includes('/') ? '1.0.0' : '',
    });
  }

  const unrendered = await request(`${url}core-versions/9`, { headers: { accept: 'application/vnd.oc.unrendered+json' } });
  t.equal(unrendered.status, 404, 'unrendered mode answers the same error');
  t.equal(unrendered.body.code, 'NOT_FOUND');
});
