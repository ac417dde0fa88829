import type { Registry } from '../registry';
import { CliError } from './command';

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
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(`Port ${port} is in use; choose another with --port, e.g. --port ${port + 1}.`);
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
