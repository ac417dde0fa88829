import path from 'node:path';

/** A host another front started, as it announces it to the registry's other front threads. */
export interface SharedHost {
  slot: number;
  address: string;
  pid: number;
}

/** Why a pool asks the owner of a host to replace it. */
export type RecycleReason = 'overdue' | 'isolate-lost' | 'memory';

/**
 * Where a pool's hosts come from. The owner's pool starts them, each listening on a socket in
 * `socketFolder`, and announces each once ready (to the registry's other front threads); a pool of
 * another front thread (a guest) connects to the hosts announced to it, and asks their owner to
 * replace one that lost an execution.
 */
export type HostSharing =
  | { role: 'owner'; socketFolder: string; announce(host: SharedHost): void }
  | { role: 'guest'; hosts: SharedHost[]; recycle(pid: number, reason: RecycleReason): void };

/** A host's socket: a short name, since a socket path is limited to about a hundred bytes (a named pipe on Windows). */
export const socketAddress = (folder: string, serial: number): string =>
  process.platform === 'win32' ? `\\\\.\\pipe\\${path.basename(folder)}-h${serial}` : path.join(folder, `h${serial}.sock`);
