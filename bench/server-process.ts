import { fork } from 'node:child_process';

/** What a server child sends once it listens. */
export interface ReadyMessage {
  type: 'ready';
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Sandbox hosts of a registry; absent for the baseline. */
  sandboxHosts?: number;
}

export interface ServerProcess {
  url: string;
  pid: number;
  ready: ReadyMessage;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 10_000;

/**
 * Starts a server entry (`servers/*.js`) in its own process, with its options as one JSON argument,
 * and answers once it listens. Each server under test runs alone in its process, with Node's flags
 * as its users start it: the registry's own (src/node-flags.ts), none for the others.
 */
export function startServerProcess(entry: string, options: unknown, nodeFlags: readonly string[] = []): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(entry, [JSON.stringify(options)], {
      execArgv: [...nodeFlags],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${entry} exited with code ${code} before listening.`)));
    child.once('message', (ready: ReadyMessage) => {
      resolve({
        url: ready.url,
        pid: child.pid!,
        ready,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.send('stop');
          const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}

/** The child side: announces readiness, then closes when the parent says stop or goes away. */
export function serveUntilStopped(ready: ReadyMessage, close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void close().finally(() => process.exit(0));
  };
  process.send!(ready);
  process.once('message', stop);
  process.once('disconnect', stop);
}
