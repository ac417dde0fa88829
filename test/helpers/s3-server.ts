import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { freePort, waitForPort } from './free-port';
import { REPO_ROOT } from './start-registry';

/**
 * fauxqs, an S3-protocol server from npm, run as its own process on loopback: a real server the
 * tests can stop and start again (its objects are kept in a folder across restarts).
 */
const SERVER_SCRIPT = path.join(REPO_ROOT, 'node_modules', 'fauxqs', 'dist', 'server.js');

export const BUCKET = 'components';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  /** The AWS SDK environment that points a registry at this server. */
  env: Record<string, string>;
  /** A client of this server, for tests that look at or damage stored objects. */
  client: S3Client;
  /** Stops the server process (the objects stay on disk). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/** Starts the server with the bucket `components`; stopped and its files removed when the test ends. */
export async function startS3Server(t: Teardown): Promise<S3Server> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-s3-'));
  const init = path.join(dir, 'init.json');
  await writeFile(init, JSON.stringify({ buckets: [BUCKET] }));
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(process.execPath, [SERVER_SCRIPT], {
      env: { ...process.env, FAUXQS_PORT: String(port), FAUXQS_INIT: init, FAUXQS_S3_STORAGE_DIR: path.join(dir, 'objects') },
      stdio: 'ignore',
    });
    await waitForPort(port);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();

  const env = { AWS_ENDPOINT_URL: endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  t.teardown(async () => {
    client.destroy();
    await stop();
    await rm(dir, { recursive: true, force: true });
  });
  return { endpoint, port, env, client, stop, start };
}

/** Points this process's AWS SDK environment at `server` (each test file runs in its own process). */
export function useS3Server(server: S3Server): void {
  Object.assign(process.env, server.env);
}
