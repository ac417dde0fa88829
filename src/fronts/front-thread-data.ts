import type { RegistryConfig } from '../config/config';
import type { SharedHost } from '../sandbox/host-sharing';

/** What a front thread is started with (structured-cloned: plain data only). */
export interface FrontThreadData {
  /** 1 for the first thread besides the main thread's front, and so on. */
  index: number;
  /** Front threads of the registry, the main thread's included. */
  fronts: number;
  /** The main thread's configuration, without its plugins (functions stay in the main thread). */
  config: RegistryConfig;
  /** The plugins of the main thread: a thread's plugin calls are run there. */
  plugins: Array<{ name: string; description: string }>;
  /** The hosts announced so far. */
  hosts: SharedHost[];
  /** The port the main thread listens on: the thread listens on it too. */
  port: number;
  logger: boolean;
}
