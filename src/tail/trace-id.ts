import { randomBytes } from 'node:crypto';

const TRACEPARENT = /^[ \t]*[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/;
const INVALID = '0'.repeat(32);

/**
 * The trace id of a request (W3C Trace Context): the one its `traceparent` header carries when it
 * is well formed, else a new random one.
 */
export function traceIdOf(traceparent: string | string[] | undefined): string {
  const header = Array.isArray(traceparent) ? traceparent[0] : traceparent;
  const id = header === undefined ? undefined : TRACEPARENT.exec(header)?.[1];
  return id !== undefined && id !== INVALID ? id : randomBytes(16).toString('hex');
}
