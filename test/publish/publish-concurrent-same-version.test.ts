import t from 'tap';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request } from '../helpers/start-registry';
import { GREETING, packed, put, startPublishRegistry } from './publish-helpers';

t.test('two concurrent publishes of one new version: exactly one wins, the other gets ALREADY_EXISTS', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const versions = ['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4'];
  for (const version of versions) {
    const tarball = await packed(GREETING, version);
    const answers = await Promise.all([put(url, `publish-greeting/${version}`, tarball), put(url, `publish-greeting/${version}`, tarball)]);
    t.same(answers.map((a) => a.status).sort(), [201, 409], version);
    const loser = answers.find((a) => a.status === 409)!;
    t.same(loser.body, {
      code: 'ALREADY_EXISTS',
      error: `publish-greeting@${version} is already published; versions are immutable.`,
      name: 'publish-greeting',
      requestVersion: version,
    });
    const rendered = await request(`${url}publish-greeting/${version}`);
    t.equal(rendered.status, 200);
    t.equal(rendered.body.version, version);
  }
  const stored = await readdir(path.join(storagePath, 'components', 'publish-greeting'));
  t.same(stored.sort(), versions, 'each version stored once');
  t.same(await readdir(path.join(storagePath, '.staging', `${os.hostname()}.${process.pid}`)), [], 'no half-written version left behind');
  t.same((await request(`${url}publish-greeting/~info`)).body.allVersions, versions);
});
