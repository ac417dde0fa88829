import t from 'tap';
import { isErrorCode, TesseraError } from '../../src/errors/errors';
import { checkedFailure } from '../../src/pipeline/sandbox-failure';

t.test('a code is one of the errors table\'s own: names every object answers to are none', async (t) => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', '', 'generic_error']) t.equal(isErrorCode(name), false, name);
  for (const value of [undefined, null, 42, {}, ['GENERIC_ERROR']]) t.equal(isErrorCode(value), false, String(value));
  t.equal(isErrorCode('GENERIC_ERROR'), true);
  t.equal(isErrorCode('SANDBOX_QUARANTINED'), true);
});

t.test('a failed sandbox answer keeps only a code a sandbox may give, its status only for GENERIC_ERROR, details only where its code has them', async (t) => {
  const read = (answer: Record<string, unknown>) => checkedFailure({ message: 'm', ...answer });
  // The registry's own codes for what happens outside the sandbox, and names that are no code.
  for (const code of ['SANDBOX_QUARANTINED', 'OVERLOADED', 'UNAUTHORIZED', 'NOT_READY', 'REQUEST_BUDGET_EXCEEDED', 'constructor', 'toString', '__proto__', 7, undefined]) {
    t.strictSame(read({ code, status: 503, details: { forged: true } }), { ok: false, code: 'GENERIC_ERROR', message: 'm', status: 503 }, String(code));
  }
  for (const code of ['RENDER_ERROR', 'NOT_FOUND', 'NESTING_TOO_DEEP', 'MEMORY_LIMIT_EXCEEDED', 'EXECUTION_TIMEOUT', 'SANDBOX_CRASHED']) {
    t.strictSame(read({ code, status: 418, details: { forged: true } }), { ok: false, code, message: 'm' }, code);
  }
  t.strictSame(read({ code: 'DEPENDENCY_MISSING_FROM_REGISTRY', details: { missingDependencies: ['x'] } }), {
    ok: false,
    code: 'DEPENDENCY_MISSING_FROM_REGISTRY',
    message: 'm',
    details: { missingDependencies: ['x'] },
  });
  t.strictSame(read({ code: 'DEPENDENCY_MISSING_FROM_REGISTRY', details: ['x'] }), { ok: false, code: 'DEPENDENCY_MISSING_FROM_REGISTRY', message: 'm' }, 'details are an object');
  // A component's own status is an error status (decisions §2): anything else is the code's.
  for (const status of [200, 399, 600, 450.5, '404', -1]) t.strictSame(read({ code: 'GENERIC_ERROR', status }), { ok: false, code: 'GENERIC_ERROR', message: 'm' }, String(status));
  t.strictSame(read({ code: 'GENERIC_ERROR', status: 599 }), { ok: false, code: 'GENERIC_ERROR', message: 'm', status: 599 });
  const error = new TesseraError(read({ code: 'constructor' }).code);
  t.equal(error.status, 500, 'every code read from an answer has a status');
});
