import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { request } from '../helpers/start-registry';
import { GREETING, GREETERS_TOKEN, packed, packagedFiles, put, startPublishRegistry } from './publish-helpers';

/**
 * Packages that pass the checks but that the file system cannot hold, or a descriptor the registry
 * cannot serialize again, are the uploader's mistake: decisions §2 answers them 400
 * PACKAGE_NOT_VALID with a sentence saying what to change, never 500 "failed unexpectedly" or 409
 * "already published" for a version that is not. A refused version stays publishable.
 */

async function variant(version: string, edit: (files: Map<string, Buffer>, descriptor: any) => void): Promise<Buffer> {
  const files = await packagedFiles(GREETING, version);
  const descriptor = JSON.parse(files.get('package.json')!.toString());
  edit(files, descriptor);
  // The deep example is written as text: this test's own JSON.stringify would overflow on it.
  files.set('package.json', Buffer.from(JSON.stringify(descriptor).replace('"DEEP"', `${'['.repeat(100_000)}${']'.repeat(100_000)}`)));
  return packTarball(files);
}

const cases: Array<{ what: string; edit: (files: Map<string, Buffer>, descriptor: any) => void }> = [
  { what: 'a file name of 300 characters', edit: (files) => files.set(`public/${'a'.repeat(300)}.txt`, Buffer.from('x')) },
  { what: 'a path of 2,100 folders', edit: (files) => files.set(`public/${'a/'.repeat(2100)}x.txt`, Buffer.from('x')) },
  {
    what: 'a file and a folder of the same name',
    edit: (files) => {
      files.set('public/clash', Buffer.from('a file'));
      files.set('public/clash/inside.txt', Buffer.from('a file in a folder of the same name'));
    },
  },
  {
    what: 'a parameter example nested 100,000 deep',
    // JSON.parse reads it; serializing it again overflows the stack.
    edit: (_files, descriptor) => {
      descriptor.oc.parameters = { ...descriptor.oc.parameters, deep: { type: 'string', example: 'DEEP' } };
    },
  },
];

// One registry for the file: each case publishes a version of its own.
let started: ReturnType<typeof startPublishRegistry> | undefined;
const registry = () => (started ??= startPublishRegistry(t));

for (const [index, { what, edit }] of cases.entries()) {
  t.test(`${what}: 400 PACKAGE_NOT_VALID, and the version stays publishable`, async (t) => {
    const { url } = await registry();
    const version = `1.0.${index + 1}`;
    const body = await variant(version, edit);
    const answer = await put(url, `publish-greeting/${version}`, body);
    t.equal(answer.status, 400, what);
    t.match(answer.body, { code: 'PACKAGE_NOT_VALID', name: 'publish-greeting', requestVersion: version, error: String, details: { problems: Array } }, what);
    t.equal((await request(`${url}publish-greeting/${version}`)).status, 404, 'nothing was stored');
    const genuine = await put(url, `publish-greeting/${version}`, await packed(GREETING, version));
    t.equal(genuine.status, 201, 'the genuine package of that version publishes');
  });
}

t.test('a body sent as JSON (valid or not) is no package: 400 PACKAGE_NOT_VALID, not a registry failure', async (t) => {
  const { url } = await registry();
  for (const body of ['{', '', '{"name":"publish-greeting"}']) {
    const answer = await request(`${url}publish-greeting/1.0.0`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${GREETERS_TOKEN}`, 'content-type': 'application/json' },
      body,
    });
    t.equal(answer.status, 400, JSON.stringify(body));
    t.match(answer.body, { code: 'PACKAGE_NOT_VALID', name: 'publish-greeting', requestVersion: '1.0.0', error: 'The request does not carry a package.' }, JSON.stringify(body));
  }
});
