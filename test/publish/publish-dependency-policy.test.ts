import { createHash } from 'node:crypto';
import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { filesUnder } from '../helpers/files-under';
import { GREETING, packagedFiles, put, startPublishRegistry, withDescriptor } from './publish-helpers';

/** The fixture's package declaring `axios` and with a server script that requires `child_process`, hashes kept true. */
async function offendingPackage(): Promise<Buffer> {
  const files = await packagedFiles(GREETING);
  const server = Buffer.concat([files.get('server.js')!, Buffer.from('\nrequire("child_process");\n')]);
  files.set('server.js', server);
  const edited = await withDescriptor((descriptor) => {
    descriptor.dependencies = { axios: '^1.0.0' };
    descriptor.oc.files.dataProvider = { ...descriptor.oc.files.dataProvider, hashKey: createHash('sha1').update(server).digest('hex'), size: server.length };
  }, files);
  return packTarball(edited);
}

t.test('the registry refuses dependencies its policy forbids, naming each', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const refused = await put(url, 'publish-greeting/1.0.0', await offendingPackage());
  t.equal(refused.status, 422);
  t.same(refused.body, {
    code: 'DEPENDENCY_NOT_ALLOWED',
    error: 'The component depends on modules the registry refuses: axios (on the registry deny-list), child_process (a Node built-in).',
    name: 'publish-greeting',
    requestVersion: '1.0.0',
    details: { dependencies: ['axios', 'child_process'] },
  });
  t.same(await filesUnder(storagePath), [], 'nothing was stored');
});

t.test('the allow-list is the registry\'s configuration', async (t) => {
  const { url } = await startPublishRegistry(t, (config) => {
    config.dependencyPolicy.allow = ['axios'];
  });
  const refused = await put(url, 'publish-greeting/1.0.0', await offendingPackage());
  t.equal(refused.status, 422);
  t.same(refused.body.details, { dependencies: ['child_process'] });
});
