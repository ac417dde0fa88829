import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, truncate, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { packagedFixture } from '../helpers/packaged-fixture';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { startCli, workFolder } from '../cli/run-cli';
import { fixture, request } from '../helpers/start-registry';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';

t.test('tessera start on storage with a truncated descriptor and a missing file serves every other version', async (t) => {
  const dir = await workFolder(t);
  const storagePath = path.join(dir, 'store');
  const storage = new FileSystemStorage(storagePath);
  for (const component of ['core-versions-1.0.0', 'core-versions-1.2.3', 'core-modes', 'core-legacy']) {
    const { descriptor, files } = await packagedFixture(fixture(component));
    await storage.writeVersion(descriptor.name, descriptor.version, files);
  }
  const stored = (name: string, version: string, file: string) => path.join(storagePath, 'components', name, version, file);
  await truncate(stored('core-versions', '1.2.3', 'package.json'), 40);
  // core-legacy sorts before core-modes: one broken component must not hide those after it.
  await unlink(stored('core-legacy', '1.0.0', 'template.js'));
  // What a publish interrupted by a stop leaves: the staging folder of a process that no longer runs.
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  const leftover = path.join(storagePath, '.staging', `${os.hostname()}.${ended}`);
  await mkdir(path.join(leftover, 'core-modes@2.0.0-x'), { recursive: true });
  await writeFile(path.join(dir, 'tessera.json'), JSON.stringify({ port: 0, host: '127.0.0.1', storage: './store', limits: { sandboxHosts: 1 } }));

  const registry = startCli(t, ['start', '--config', path.join(dir, 'tessera.json')]);
  const [, url] = await registry.waitFor(/Tessera registry on (http:\/\/127\.0\.0\.1:\d+\/)/);
  t.match(registry.output(), /"msg":"skipped core-legacy@1\.0\.0: it cannot be read from storage: core-legacy@1\.0\.0: template\.js missing from storage\."/);
  t.match(registry.output(), /"msg":"skipped core-versions@1\.2\.3: it cannot be read from storage: core-versions@1\.2\.3: package\.json is not valid JSON \(/);

  t.match(registry.output(), '"msg":"removed 1 staging folder(s) left by interrupted publishes"');
  t.notOk(existsSync(leftover), 'the interrupted publish left nothing');
  t.strictSame((await request(url!)).body.components, [`${url}core-modes`, `${url}core-versions`], 'the readable components are listed');
  t.equal((await request(`${url}core-modes?name=Ada`)).status, 200);
  const latest = await request(`${url}core-versions`);
  t.equal(latest.status, 200);
  t.equal(latest.body.version, '1.0.0', 'the readable version of core-versions is served');
  t.equal((await request(`${url}core-versions/1.2.3`)).status, 404);
  t.equal((await request(`${url}core-legacy`)).status, 404);
  t.equal(valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_catalog_unreadable_versions'), 2);
});
