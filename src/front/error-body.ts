import { TesseraError } from '../errors/errors';

export interface ErrorReply {
  status: number;
  body: { code: string; error: string; name: string; requestVersion: string; details?: Record<string, unknown>; stack?: string };
}

/** A failure of the registry itself, told to the user without its internals. */
export const unexpectedError = (cause: unknown): TesseraError =>
  new TesseraError('GENERIC_ERROR', 'The registry failed unexpectedly while answering.', { cause });

/** The §2 error body. Unexpected errors become GENERIC_ERROR without internals (stacks only in development). */
export function errorReply(error: unknown, name: string, requestVersion: string, development = false): ErrorReply {
  const coded = error instanceof TesseraError ? error : unexpectedError(error);
  const body: ErrorReply['body'] = { code: coded.code, error: coded.message, name, requestVersion };
  if (coded.details !== undefined) body.details = coded.details;
  if (development) {
    const cause = coded.cause instanceof Error ? coded.cause : coded;
    if (cause.stack) body.stack = cause.stack;
  }
  return { status: coded.status, body };
}
