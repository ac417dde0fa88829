import { TesseraError, type ErrorCode } from '../errors/errors';

/**
 * How a publish ended, as plain data: it crosses from a publish thread to the pool, and from the
 * main thread to the front thread that received the upload, where a thrown error would lose its code.
 */
export type PublishOutcome =
  | { ok: true }
  | { ok: false; refusal: { code: ErrorCode; message: string; status: number; details?: Record<string, unknown> } }
  | { ok: false; fault: string };

/** The outcome of a publish that threw `error`: a coded refusal, or a fault of the registry's. */
export function outcomeOf(error: unknown): PublishOutcome {
  if (error instanceof TesseraError) return { ok: false, refusal: { code: error.code, message: error.message, status: error.status, details: error.details } };
  return { ok: false, fault: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/** Throws what the publish ended with, unless it succeeded: the coded refusal as a TesseraError. */
export function throwUnlessPublished(outcome: PublishOutcome): void {
  if (outcome.ok) return;
  if ('refusal' in outcome) {
    const { code, message, status, details } = outcome.refusal;
    throw new TesseraError(code, message, { status, details });
  }
  throw new Error(`A publish thread failed: ${outcome.fault}`);
}
