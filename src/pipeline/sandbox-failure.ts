import { isErrorCode, type ErrorCode } from '../errors/errors';

/** A failed execution as the render pipeline reads it from a sandbox's answer. */
export interface SandboxFailure {
  ok: false;
  code: ErrorCode;
  /** The component's own status (400–599), kept for GENERIC_ERROR only (decisions §2). */
  status?: number;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * The codes a sandbox's answer may carry, and whether they come with details. Everything else
 * (the registry's own codes for what happens outside the sandbox, such as SANDBOX_QUARANTINED or
 * OVERLOADED) is decided here, never taken from an answer: whatever crossed is read as GENERIC_ERROR.
 */
const SANDBOX_CODES: Partial<Record<ErrorCode, { details: boolean }>> = {
  GENERIC_ERROR: { details: false },
  RENDER_ERROR: { details: false },
  NOT_FOUND: { details: false },
  DEPENDENCY_MISSING_FROM_REGISTRY: { details: true },
  NESTING_TOO_DEEP: { details: false },
  MEMORY_LIMIT_EXCEEDED: { details: false },
  EXECUTION_TIMEOUT: { details: false },
  SANDBOX_CRASHED: { details: false },
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A sandbox's failed answer with only what it may say: a code of its own, an error status for GENERIC_ERROR, details where its code has them. */
export function checkedFailure(answer: { code?: unknown; status?: unknown; message?: unknown; details?: unknown }): SandboxFailure {
  const code = isErrorCode(answer.code) && Object.hasOwn(SANDBOX_CODES, answer.code) ? answer.code : 'GENERIC_ERROR';
  const failure: SandboxFailure = { ok: false, code, message: typeof answer.message === 'string' ? answer.message : String(answer.message) };
  const status = answer.status;
  if (code === 'GENERIC_ERROR' && typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599) failure.status = status;
  if (SANDBOX_CODES[code]?.details === true && isRecord(answer.details)) failure.details = answer.details;
  return failure;
}

/** A failure's sentence as its caller reads it: its component named once (a component rethrowing its own nested failure keeps one prefix, not one per level). */
export function failureMessage(component: string, failure: SandboxFailure): string {
  const prefix = `Component "${component}" failed: `;
  return (failure.code === 'GENERIC_ERROR' || failure.code === 'RENDER_ERROR') && !failure.message.startsWith(prefix) ? prefix + failure.message : failure.message;
}
