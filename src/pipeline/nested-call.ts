import { coerceParameter } from '../catalog/coerce-parameter';
import type { ParameterDefinition } from '../descriptor/descriptor-types';
import type { NestedPlan } from '../sandbox/protocol';
import { buildHref } from './build-href';
import { isPlainObject, stringHeaders } from './call-values';
import { headersFromParent } from './component-cookies';
import { executionInput, staticPathOf } from './execution-input';
import { checkedFailure, failureMessage } from './sandbox-failure';
import { wrapHtml } from './wrap-html';

/**
 * A nested render under a lease (protocol.ts, NestedLease), as the sandbox host runs it beside its
 * parent: the same input and the same answer the render pipeline gives the same call through the
 * front (render.ts, bridge-calls.ts), for the one case a lease covers: a rendered child whose
 * parameters are valid. Whatever else a call holds is left to the front (undefined).
 */

/** A parent's call, as its isolate sends it (`renderComponent`'s payload). */
interface CallPayload {
  name?: unknown;
  version?: unknown;
  parameters?: unknown;
  headers?: unknown;
  baseUrl?: unknown;
}

/** A call the host may run itself: the plan it matches, the child's input, and its `href`. */
export interface LocalCall {
  plan: number;
  input: string;
  href: string;
}


/** The call's matching plan and the child's input, or undefined when the front is to render it (an undefined plan matches nothing). */
export function localCall(plans: ReadonlyArray<NestedPlan | undefined>, used: readonly boolean[], payload: string): LocalCall | undefined {
  let call: CallPayload;
  try {
    call = JSON.parse(payload) as CallPayload;
  } catch {
    return undefined;
  }
  const requested = typeof call.version === 'string' ? call.version : '';
  const index = plans.findIndex((plan, at) => plan !== undefined && !used[at] && plan.name === call.name && plan.requested === requested);
  const plan = plans[index];
  if (plan === undefined || typeof call.baseUrl !== 'string') return undefined;
  const given = isPlainObject(call.parameters) ? call.parameters : {};
  const params = validParameters(plan.parameters, given);
  if (params === undefined) return undefined;
  // Only the headers the parent passes, without any component's cookie (decisions §8, §11): so the
  // child holds no cookie of its own here, nor do its tenant's other components.
  const headers = headersFromParent(stringHeaders(call.headers));
  const input = executionInput({
    cookieScope: plan.name,
    mode: 'rendered',
    params,
    given,
    headers,
    baseUrl: call.baseUrl,
    staticPath: staticPathOf(plan.staticBaseUrl ?? call.baseUrl, plan.name, plan.version),
    tenantCookies: { bytes: 0, names: 0 },
  });
  return { plan: index, input, href: buildHref(call.baseUrl, plan.name, requested, params) };
}

/** What the parent's call is answered (JSON, as the front answers it) and how the child's execution ended. */
export function localAnswer(plan: NestedPlan, href: string, answer: string): { answer: string; outcome: string } {
  const parsed = JSON.parse(answer) as { ok: boolean; html?: string; empty?: boolean; code?: unknown; status?: unknown; message?: unknown; details?: unknown };
  if (!parsed.ok) {
    const failure = checkedFailure(parsed);
    const message = failureMessage(plan.name, failure);
    // A nesting too deep is the whole request's failure: its code crosses back (bridge-calls.ts).
    const code = failure.code === 'NESTING_TOO_DEEP' ? failure.code : undefined;
    return { answer: JSON.stringify({ ok: false, code, message }), outcome: failure.code };
  }
  const html = parsed.empty
    ? ''
    : wrapHtml(parsed.html ?? '', { href, templateKey: plan.templateKey, name: plan.name, version: plan.version, container: plan.container, renderInfo: plan.renderInfo });
  return { answer: JSON.stringify({ ok: true, value: html }), outcome: 'ok' };
}

/**
 * The parameters as the front's validator (catalog/parameter-validator.ts) would give them back, or
 * undefined for anything it would refuse or that is not plainly valid: the front then answers the
 * call, with its own error.
 */
function validParameters(definitions: Record<string, ParameterDefinition>, given: Record<string, unknown>): Record<string, unknown> | undefined {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || name.startsWith('__oc')) continue;
    if (typeof value === 'object') return undefined;
    const definition = Object.hasOwn(definitions, name) ? definitions[name] : undefined;
    const coerced = definition && typeof value === 'string' ? coerceParameter(value, definition.type) : value;
    if (definition && (typeof coerced !== definition.type || (definition.enum && !definition.enum.includes(coerced as never)))) return undefined;
    // ajv's numbers are finite: `1e999` reads as Infinity, which the front refuses.
    if (typeof coerced === 'number' && !Number.isFinite(coerced)) return undefined;
    params[name] = coerced;
  }
  // `required` is an own property to ajv; a default is added, as the front adds it, unless `in` finds the name.
  for (const [name, definition] of Object.entries(definitions)) if (definition.mandatory === true && !Object.hasOwn(params, name)) return undefined;
  for (const [name, definition] of Object.entries(definitions)) if (definition.default !== undefined && !(name in params)) params[name] = definition.default;
  return params;
}

