import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { request } from '../helpers/start-registry';
import { filesUnder } from '../helpers/files-under';
import { GREETING, craftTarball, packagedFiles, put, startPublishRegistry, type CraftedEntry } from './publish-helpers';

/** The fixture's real package entries, so that only the hostile entry is wrong. */
async function genuineEntries(): Promise<CraftedEntry[]> {
  return [...(await packagedFiles(GREETING))].map(([file, content]) => ({ path: `_package/${file}`, content: content.toString('utf8') }));
}

const escaping = (problems: string[]) => ({
  code: 'PACKAGE_NOT_VALID',
  error: 'The package has entries that escape it, are not regular files or cannot be stored; nothing was stored.',
  name: 'publish-greeting',
  requestVersion: '1.0.0',
  details: { problems },
});

t.test('entries that escape the package refuse the whole tarball and nothing is written', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const outside = `tessera-escape-${randomUUID()}.js`;
  const cases: Array<{ entry: CraftedEntry; problem: string }> = [
    { entry: { path: `../${outside}`, content: 'stolen' }, problem: `"../${outside}" climbs out with ".."; paths must stay inside the package` },
    { entry: { path: `_package/public/../../../${outside}`, content: 'stolen' }, problem: `"_package/public/../../../${outside}" climbs out with ".."; paths must stay inside the package` },
    { entry: { path: `/tmp/${outside}`, content: 'stolen' }, problem: `"/tmp/${outside}" is an absolute path; paths must stay inside the package` },
    { entry: { path: '_package/public/passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' }, problem: '"_package/public/passwd" is a link; a package holds regular files only' },
    { entry: { path: '_package/public/hard', type: 'Link', linkpath: '/etc/passwd' }, problem: '"_package/public/hard" is a link; a package holds regular files only' },
  ];
  for (const { entry, problem } of cases) {
    const tarball = await craftTarball([...(await genuineEntries()), entry]);
    const answer = await put(url, 'publish-greeting/1.0.0', tarball);
    t.equal(answer.status, 400, entry.path);
    t.same(answer.body, escaping([problem]), entry.path);
  }

  const all = await put(url, 'publish-greeting/1.0.0', await craftTarball([...(await genuineEntries()), ...cases.map((c) => c.entry)]));
  t.same(all.body, escaping(cases.map((c) => c.problem)), 'every hostile entry is listed');

  t.same(await filesUnder(storagePath), [], 'storage holds nothing');
  for (const folder of [storagePath, path.dirname(storagePath), '/tmp']) t.notOk(existsSync(path.join(folder, outside)), `nothing written in ${folder}`);
  t.equal((await request(`${url}publish-greeting`)).status, 404);

  const genuine = await put(url, 'publish-greeting/1.0.0', await craftTarball(await genuineEntries()));
  t.equal(genuine.status, 201, 'the same package without the hostile entry publishes');
});

t.test('a tarball of the bare package content (no _package folder) publishes too', async (t) => {
  const { url } = await startPublishRegistry(t);
  const entries = (await genuineEntries()).map((entry) => ({ ...entry, path: entry.path.replace('_package/', './') }));
  const answer = await put(url, 'publish-greeting/1.0.0', await craftTarball([{ path: './', type: 'Directory' }, ...entries]));
  t.equal(answer.status, 201);
  t.match((await request(`${url}publish-greeting?name=Cy`)).body.html, 'Hello, Cy!');
});
