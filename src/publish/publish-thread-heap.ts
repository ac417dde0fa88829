import { TesseraError } from '../errors/errors';

const MB = 1024 * 1024;
/** What a publish thread holds besides the package: its modules (tar, ajv's validator, the storage client) and a large descriptor's parse. */
const BASE_MB = 64;
/**
 * Heap per MB of the largest `server.js` checked: acorn's tree of real bundled code takes about 13
 * to 15 times the script's size (TypeScript's 9 MB bundle: 118 MB; a 3.6 MB bundle: 55 MB); 16
 * leaves room to spare. A script of bare statements (`0;0;…`) takes 45 to 70 times its size, and
 * ends its thread here instead of taking the process's memory.
 */
const MB_PER_SCRIPT_MB = 16;

/**
 * The old-generation heap a publish thread may use (piscina's `resourceLimits`), from
 * `limits.serverScriptBytes`: 144 MB with the default 5 MB. A thread past it is ended by Node, its
 * package refused (`heapExhausted`), and piscina starts another thread for the next publish.
 */
export const publishThreadHeapMb = (serverScriptBytes: number): number => BASE_MB + Math.ceil(serverScriptBytes / MB) * MB_PER_SCRIPT_MB;

export const heapExhausted = (heapMb: number): TesseraError =>
  new TesseraError('PACKAGE_TOO_COMPLEX', `Checking the package took more than the publish thread's ${heapMb} MB of memory; nothing was stored.`, {
    details: { bound: 'publishThreadHeapMb', limit: heapMb },
  });
