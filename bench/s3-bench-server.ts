import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from '../test/helpers/free-port';
import { REPO_ROOT } from './bench-storage';

export const S3_BUCKET = 'components';

export interface BenchS3Server {
  /** The AWS SDK environment that points a registry (or a client) at this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * fauxqs, the S3-protocol server the tests use (a devDependency), as a process of its own on
 * loopback, with the bucket `components`; its objects live in a temporary folder removed by `stop`.
 */
export async function startS3BenchServer(): Promise<BenchS3Server> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-s3-'));
  const init = path.join(dir, 'init.json');
  await writeFile(init, JSON.stringify({ buckets: [S3_BUCKET] }));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'fauxqs', 'dist', 'server.js')], {
    env: { ...process.env, FAUXQS_PORT: String(port), FAUXQS_INIT: init, FAUXQS_S3_STORAGE_DIR: path.join(dir, 'objects') },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port);
  } catch (error) {
    await stop();
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return { env: { AWS_ENDPOINT_URL: endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench' }, stop };
}
