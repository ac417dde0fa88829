import { assertPortIsFree } from '../front/port-is-free';
import type { Registry } from '../registry';
import { CliError } from './command';

const portInUse = (port: number): CliError => new CliError(`Port ${port} is in use; choose another with --port, e.g. --port ${port + 1}.`);

/** Fails as a taken port does at listen, before the registry starts its sandbox hosts (or dev its builds). */
export async function assertPortAvailable(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await assertPortIsFree(port, host).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' ? portInUse(port) : error;
  });
}

/**
 * Starts serving and stops once on SIGINT or SIGTERM (Ctrl-C arrives twice when the command runs
 * through bin/tessera.js: from the terminal and from its relay). `cleanup` runs after the registry
 * has closed, whether listening failed or the process is stopping. Answers the base URL.
 */
export async function serveUntilSignal(registry: Registry, port: number, cleanup: () => Promise<void> = async () => {}): Promise<string> {
  let url: string;
  try {
    url = await registry.listen();
  } catch (error) {
    // A taken port must end the process, not leave the sandbox hosts running.
    await registry.close();
    await cleanup();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw portInUse(port);
    throw error;
  }
  let stopping = false;
  // SIGTERM (an orchestrator, a load balancer's host) drains: in-flight requests finish, within a bound.
  // SIGINT (Ctrl-C) stops at once.
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const stopped = signal === 'SIGTERM' ? registry.drain().then((finished) => {
      if (!finished) registry.app.log.warn('draining passed limits.drainTimeoutMs; exiting with requests still open');
    }) : registry.close();
    void stopped
      .then(cleanup)
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return url;
}
