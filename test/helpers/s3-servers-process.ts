/**
 * The S3-protocol servers of one test process, in a process of their own (forked by s3-server.ts):
 * each server is a fauxqs instance on its own loopback port, its objects in its own folder. A fauxqs
 * process took about a third of a CPU-second to start, most of it loading its modules; an instance
 * in a process that has them loaded takes a few milliseconds.
 */
import '../../src/enable-compile-cache';
import path from 'node:path';

// fauxqs exports its module to `import` only; loaded by its path, it is the same ES module.
const FAUXQS_MODULE = path.join(__dirname, '..', '..', '..', 'node_modules', 'fauxqs', 'dist', 'app.js');
const { startFauxqs } = require(FAUXQS_MODULE) as typeof import('fauxqs');

/** `call` numbers the request, which its answer names; `server` names the instance. */
export type ServersRequest = { call: number; server: number } & ({ op: 'start'; port: number; init: string; objects: string } | { op: 'stop' });
export interface ServersAnswer {
  call: number;
  error?: string;
}

type Instance = Awaited<ReturnType<typeof startFauxqs>>;
const running = new Map<number, Instance>();

async function handle(request: ServersRequest): Promise<void> {
  if (request.op === 'start') {
    // Without a logger: fauxqs logs every request otherwise.
    running.set(request.server, await startFauxqs({ logger: false, port: request.port, init: request.init, s3StorageDir: request.objects }));
    return;
  }
  const instance = running.get(request.server);
  running.delete(request.server);
  await instance?.stop();
}

process.on('message', (request: ServersRequest) => {
  handle(request).then(
    () => process.send!({ call: request.call } satisfies ServersAnswer),
    (error: unknown) => process.send!({ call: request.call, error: error instanceof Error ? error.message : String(error) } satisfies ServersAnswer),
  );
});
// Its test process gone, nothing is left to serve.
process.on('disconnect', () => process.exit(0));
