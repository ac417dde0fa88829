/**
 * Random (version 4) UUIDs for what the front makes on every request: a request's id and each
 * rendered wrapper's (decisions §4). Node's `randomUUID` joins its 36 characters from 20 pieces, about
 * 600 bytes of garbage a call, two calls a rendered GET; here the characters are written into one
 * buffer and read out as one string, about 60 bytes, from random bytes drawn 4 KB at a time (Node
 * draws 2 KB). node:crypto is loaded at the first call: a sandbox host imports the wrapper for the
 * children it runs beside their parent, and loading crypto (about 20 of Node's modules, 4 ms of CPU)
 * was part of every host's start, wrapping or not.
 */

const UUIDS_PER_DRAW = 256;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

let randomFillSync: ((buffer: Buffer) => Buffer) | undefined;
const random = Buffer.alloc(16 * UUIDS_PER_DRAW);
let next = random.length;
/** The 36 characters of the UUID being written; `-` at 8, 13, 18 and 23 stay. */
const text = Buffer.alloc(36, DASH);

export function randomUUID(): string {
  if (next === random.length) {
    (randomFillSync ??= (require('node:crypto') as typeof import('node:crypto')).randomFillSync)(random);
    next = 0;
  }
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) at++;
    let byte = random[next + i]!;
    // The version (4) and the variant (10xx), RFC 9562.
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    text[at++] = HEX[byte >> 4]!;
    text[at++] = HEX[byte & 0x0f]!;
  }
  next += 16;
  return text.toString('latin1');
}
