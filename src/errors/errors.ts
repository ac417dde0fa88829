/**
 * Every error a user can see: its code, HTTP status and a default sentence.
 * docs/reference/errors.md lists the same codes; test/errors-are-documented.test.ts keeps the two equal.
 */
export const ERRORS = {
  NOT_FOUND: { status: 404, message: 'The requested resource was not found.' },
  NOT_VALID_REQUEST: { status: 400, message: 'The request parameters are not valid.' },
  POST_BODY_NOT_VALID: { status: 400, message: 'The request body is not valid.' },
  TEMPLATE_NOT_SUPPORTED: { status: 400, message: 'This registry cannot render the template type.' },
  PLUGIN_MISSING_FROM_REGISTRY: { status: 501, message: 'The component needs plugins this registry does not have.' },
  DEPENDENCY_MISSING_FROM_REGISTRY: { status: 501, message: 'The component requires a module that is neither bundled nor provided.' },
  GENERIC_ERROR: { status: 500, message: 'The component failed while running its server logic.' },
  EXECUTION_TIMEOUT: { status: 504, message: 'The component passed its execution time limit.' },
  MEMORY_LIMIT_EXCEEDED: { status: 500, message: 'The component passed its sandbox memory limit.' },
  SANDBOX_CRASHED: { status: 500, message: 'The sandbox running the component stopped unexpectedly; retry the request.' },
  SANDBOX_QUARANTINED: { status: 503, message: "This component (or its tenant's components) keeps losing its sandbox and is refused for a while." },
  REQUEST_BUDGET_EXCEEDED: { status: 500, message: 'The request spent more across its nested renders than one request may (executions, slots held at once, or bytes of nested answers).' },
  EXECUTION_CANCELLED: { status: 500, message: 'The execution was cancelled: the request it belonged to had already been answered.' },
  RENDER_ERROR: { status: 500, message: 'The component template failed to render.' },
  // 508 Loop Detected: past the limit is almost always a component rendering itself; retrying cannot help.
  NESTING_TOO_DEEP: { status: 508, message: 'Nested rendering is deeper than the registry allows.' },
  OVERLOADED: { status: 503, message: 'The registry is at capacity; retry later.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is over its size limit.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request stopped arriving: nothing came for longer than the registry waits.' },
  UNAUTHORIZED: { status: 401, message: 'A valid publish token is required.' },
  FORBIDDEN: { status: 403, message: 'The token may not publish this component.' },
  // A tenant's tails open on one replica are bounded (limits.tailsPerTenant); details.limit says how many.
  TOO_MANY_TAILS: { status: 429, message: 'The tenant has as many tails open as it may; close one first.' },
  GONE: { status: 410, message: 'This component version was unpublished.' },
  ALREADY_EXISTS: { status: 409, message: 'This component version is already published; versions are immutable.' },
  // 429: the tenant is over what it may publish or store; details.quota names which quota refused.
  QUOTA_EXCEEDED: { status: 429, message: "The publish would pass one of its tenant's quotas." },
  PACKAGE_NOT_VALID: { status: 400, message: 'The component package is not valid.' },
  DEPENDENCY_NOT_ALLOWED: { status: 422, message: "The component's dependencies break the registry's dependency policy." },
  // details.bound names the limit (a configuration key under limits, or the publish thread's heap).
  SERVER_SCRIPT_TOO_LARGE: { status: 413, message: 'The server script is larger than this registry checks.' },
  PACKAGE_TOO_COMPLEX: { status: 422, message: 'Checking the package would take more than a publish may spend: lines, nesting, time or memory.' },
  STORAGE_UNAVAILABLE: { status: 503, message: 'The component storage did not answer in time; retry later.' },
  STORAGE_CORRUPT: { status: 500, message: 'A stored file of this component version is damaged.' },
  NOT_READY: { status: 503, message: 'This registry is starting or draining; send the request to another replica.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Whether `code` is one of the table's own codes: `constructor` or `__proto__` is no code. */
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERRORS, code);

export interface TesseraErrorOptions {
  /** Overrides the table's status (GENERIC_ERROR carries the component's own status). */
  status?: number;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** A coded error: what the render pipeline, packager and routes throw and the front turns into a body. */
export class TesseraError extends Error {
  /**
   * Whether a coded error keeps the stack where it was made. Only a development registry shows one
   * (src/front/error-body.ts); a registry that shows none sets this off for its thread, since V8
   * capturing it was a fifth of the front's CPU under a flood of requests for unknown components.
   */
  static keepStacks = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, options: TesseraErrorOptions = {}) {
    const stackTraceLimit = Error.stackTraceLimit;
    if (!TesseraError.keepStacks) Error.stackTraceLimit = 0;
    super(message ?? ERRORS[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'TesseraError';
    this.code = code;
    this.status = options.status ?? ERRORS[code].status;
    this.details = options.details;
  }
}
