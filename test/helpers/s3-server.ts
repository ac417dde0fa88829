import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { freePort } from './free-port';
import type { ServersAnswer, ServersRequest } from './s3-servers-process';

/**
 * fauxqs, an S3-protocol server from npm, on loopback in a process apart from the test's: a real
 * server the tests can stop and start again (its objects are kept in a folder across restarts). The
 * servers of one test process are instances in one such process (s3-servers-process.ts), forked at
 * the first and killed when the test process exits.
 */
const SERVERS_FILE = path.join(__dirname, 's3-servers-process.js');

interface ServersProcess {
  readonly child: ChildProcess;
  /** Requests sent and not yet answered, by call number. */
  readonly waiting: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
}

let servers: ServersProcess | undefined;
let nextCall = 1;
let nextServer = 1;

/** Referenced only while a request waits: an idle servers' process never keeps its test process alive. */
function holdOpen(child: ChildProcess, held: boolean): void {
  if (held) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

function serversProcess(): ServersProcess {
  if (servers) return servers;
  // Not the test process's flags (its file time limits): a plain Node process.
  const child = fork(SERVERS_FILE, [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const started: ServersProcess = { child, waiting: new Map() };
  child.on('message', ({ call, error }: ServersAnswer) => {
    const waiter = started.waiting.get(call);
    started.waiting.delete(call);
    if (started.waiting.size === 0) holdOpen(child, false);
    if (error === undefined) waiter?.resolve();
    else waiter?.reject(new Error(`The S3 server: ${error}`));
  });
  const ended = (why: string): void => {
    if (servers === started) servers = undefined;
    for (const waiter of started.waiting.values()) waiter.reject(new Error(why));
    started.waiting.clear();
  };
  child.once('exit', (code, signal) => ended(`The S3 servers' process ended (${signal ?? code}).`));
  // It could not start, or a request could not reach it (an exit may not follow): nothing waits for it any more.
  child.on('error', (error) => {
    ended(`The S3 servers' process failed: ${error.message}`);
    child.kill('SIGKILL');
  });
  process.once('exit', () => child.kill('SIGKILL'));
  holdOpen(child, false);
  servers = started;
  return started;
}

/** A request of either kind, before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'call'> : never;

function ask(request: Unnumbered<ServersRequest>, via: ServersProcess): Promise<void> {
  const { child, waiting } = via;
  const call = nextCall++;
  return new Promise((resolve, reject) => {
    waiting.set(call, { resolve, reject });
    holdOpen(child, true);
    child.send({ ...request, call } as ServersRequest);
  });
}

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
  /** Stops the server (the objects stay on disk): its port refuses connections. */
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
  const server = nextServer++;
  /** The process running this server, while it runs. */
  let runningIn: ServersProcess | undefined;
  const start = async () => {
    const via = serversProcess();
    await ask({ op: 'start', server, port, init, objects: path.join(dir, 'objects') }, via);
    runningIn = via;
  };
  const stop = async () => {
    const via = runningIn;
    runningIn = undefined;
    // A servers' process that ended took its servers with it.
    if (via === undefined || via !== servers) return;
    await ask({ op: 'stop', server }, via);
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

/**
 * Points this process's AWS SDK environment at `server` until the test ends: the test files of a
 * part of the suite share a process, and the next one must not find another's server there.
 */
export function useS3Server(t: Teardown, server: S3Server): void {
  const before = Object.fromEntries(Object.keys(server.env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, server.env);
  t.teardown(() => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
}
