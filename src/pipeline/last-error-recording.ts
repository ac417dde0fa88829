import { ERRORS, isErrorCode, TesseraError } from '../errors/errors';
import type { LastErrors } from '../tail/last-errors';
import { failureMessage, type SandboxFailure } from './sandbox-failure';

/** The component version that ran, and the tenant it belonged to then. */
interface Ran {
  name: string;
  version: string;
  tenant: string;
}

/** The version that ran, as the render path holds it: nothing is built for a render that succeeds. */
type RanVersion = Pick<Ran, 'name' | 'version'>;

/** A failed answer, noted in its component's ring and passed on untouched. */
export function noteFailure(lastErrors: LastErrors, ran: RanVersion, tenant: string, failure: SandboxFailure): SandboxFailure {
  lastErrors.note(ran.name, {
    tenant,
    version: ran.version,
    status: failure.status ?? ERRORS[failure.code].status,
    code: failure.code,
    message: failureMessage(ran.name, failure),
  });
  return failure;
}

/** An execution that rejected (refused by the pool, its host lost, …): noted, and rethrown. */
export function noteRejection(lastErrors: LastErrors, ran: RanVersion, tenant: string, error: unknown): never {
  const coded = error instanceof TesseraError;
  lastErrors.note(ran.name, {
    tenant,
    version: ran.version,
    status: coded ? error.status : ERRORS.GENERIC_ERROR.status,
    code: coded ? error.code : 'GENERIC_ERROR',
    message: coded ? error.message : ERRORS.GENERIC_ERROR.message,
  });
  throw error;
}

/** A nested render its parent's host ran, which failed: its host tells its code alone. */
export function noteNestedFailure(lastErrors: LastErrors, ran: Ran, outcome: string): void {
  const code = isErrorCode(outcome) ? outcome : 'GENERIC_ERROR';
  lastErrors.note(ran.name, { tenant: ran.tenant, version: ran.version, status: ERRORS[code].status, code, message: ERRORS[code].message });
}
