import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { request } from '../helpers/start-registry';
import { until } from '../sandbox/wait-for';
import { GREETERS_TOKEN, GREETING, packagedFiles, packed, startPublishRegistry } from './publish-helpers';

// A publish waits for a publish thread in its tenant's queue. Its client may give up first (a CLI
// stopped, a deploy timed out): nobody is left to hear the answer, so the publish leaves the queue
// and never runs. It stores nothing, and takes no turn from the tenants behind it.

const UPLOADS = 4;

/** Starts a PUT on a connection of its own; answers a way to close that connection before the answer. */
function putThenLeave(url: string, body: Buffer): { close(): void; answered: Promise<number | 'closed'> } {
  const headers = { authorization: `Bearer ${GREETERS_TOKEN}`, 'content-type': 'application/gzip', 'content-length': String(body.length) };
  const put = http.request(url, { method: 'PUT', agent: false, headers });
  const answered = new Promise<number | 'closed'>((resolve) => {
    put.on('response', (response) => resolve(response.statusCode!));
    put.on('error', () => resolve('closed'));
  });
  put.end(body);
  return { close: () => put.destroy(), answered };
}

t.test('publishes whose clients closed the connection while they waited for a thread leave the queue and store nothing', async (t) => {
  const { url, registry } = await startPublishRegistry(t, (config) => {
    config.limits.publishThreads = 1;
    // Uploads reach both front threads: the main thread's and another, which tells the main thread.
    config.limits.frontThreads = 2;
  });
  const pool = registry.publishes!;
  // The one thread is held by a publish reading a named pipe nobody writes to until the test says.
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tessera-left-'));
  const pipe = path.join(folder, 'held.tgz');
  execFileSync('mkfifo', [pipe]);
  t.teardown(async () => {
    // Opened for reading and writing, the pipe ends an open still waiting for a writer (Linux).
    await (await open(pipe, 'r+')).close();
    await rm(folder, { recursive: true, force: true });
  });
  const held = pool.run({ name: 'publish-greeting', version: '1.0.0', tenant: 'holder', tokenId: 'config:holder', storedToken: false, dryRun: true }, pipe, new AbortController().signal);

  const versions = Array.from({ length: UPLOADS }, (_, index) => `3.0.${index}`);
  const uploads = await Promise.all(versions.map(async (version) => putThenLeave(`${url}publish-greeting/${version}`, await packTarball(await packagedFiles(GREETING, version)))));
  await until(() => pool.waiting === UPLOADS);
  for (const upload of uploads) upload.close();
  t.same(await Promise.all(uploads.map((upload) => upload.answered)), versions.map(() => 'closed'), 'no client heard an answer');
  await until(() => pool.waiting === 0);
  t.equal(pool.inProgress, 1, 'only the held publish is left');

  await writeFile(pipe, await packed(GREETING));
  t.same(await held, { ok: true }, 'the held publish ends');
  await until(() => pool.inProgress === 0);
  const infos = await Promise.all(versions.map((version) => request(`${url}publish-greeting/${version}/~info`)));
  t.same(
    infos.map((info) => info.status),
    versions.map(() => 404),
    'none of the publishes left behind was stored',
  );
  t.same(await registry.storage.listVersions('publish-greeting'), [], 'nor written to storage');

  const next = await packed(GREETING, '3.1.0');
  const published = await new Promise<number>((resolve, reject) => {
    const put = http.request(`${url}publish-greeting/3.1.0`, { method: 'PUT', headers: { authorization: `Bearer ${GREETERS_TOKEN}`, 'content-type': 'application/gzip' } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    put.on('error', reject);
    put.end(next);
  });
  t.equal(published, 201, 'the thread serves the next publish');
});
