import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { fixture, ofTenant, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';

/**
 * Behind a public base URL with a path (`/oc/`), a component may name the path of its cookies: `/`,
 * `/oc` or `/oc/`, all of which come back with every request to the registry. The bounds count
 * names (a name held twice is one name, its bytes summed), but the browser keeps one cookie per
 * name and path: setting the same 8 names under each of the three paths keeps 24 cookies of one
 * component, 48 of a tenant's two, where a tenant's components together keep at most 16.
 */
const PATHS = ['/', '/oc', '/oc/'];

t.test("one tenant's components keep at most 16 cookies in the visitor's jar, whatever paths they name", async (t) => {
  // The registry behind a reverse proxy that serves it under /oc/ (the registry itself at /).
  let target = '';
  const proxy = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (!url.pathname.startsWith('/oc/')) {
      res.writeHead(404).end();
      return;
    }
    const upstream = http.request(`${target}${url.pathname.slice('/oc/'.length)}${url.search}`, { method: req.method, headers: Object.fromEntries(Object.entries(req.headers).filter(([key]) => key !== 'host')) as http.OutgoingHttpHeaders }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/oc/`;

  const crowd: TenantComponent[] = [0, 1].map((i) => ({ dir: fixture('hostile-cookie-paths'), tenant: 'mallory', name: `paths-${i}` }));
  const { url } = await startRegistry(t, [ofTenant('beta', fixture('tenant-beta')), ...crowd], (config) => {
    config.baseUrl = base;
  });
  target = url;
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);

  const login = await page.goto(`${base}tenant-beta?login=true`);
  t.equal(login?.status(), 200);

  const answers: string[] = [];
  for (const name of ['paths-0', 'paths-1']) {
    for (const path of PATHS) {
      const answer = await page.goto(`${base}${name}?path=${encodeURIComponent(path)}`);
      t.equal(answer?.status(), 200, `${name} under ${path} answered`);
      answers.push(`${name}${path}: ${(await answer!.json()).html}`);
    }
  }
  t.comment(answers.join(', '));
  const jar = await page.context().cookies();
  const mallory = jar.filter((cookie) => cookie.name.startsWith('oc.paths-'));
  t.comment(`the jar holds ${jar.length} cookies of the origin, ${mallory.length} of them mallory's: ${[...new Set(mallory.map((c) => c.path))].join(' ')}`);
  t.ok(mallory.length <= 16, `one tenant keeps at most 16 cookies in the visitor's jar (it keeps ${mallory.length})`);

  const after = await page.goto(`${base}tenant-beta`);
  t.equal((await after!.json()).html, '<p>session=beta-secret</p>', "beta's visitor keeps the session");
  t.same(pageErrors, []);
});
