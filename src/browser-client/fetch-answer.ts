import type { RenderFailure } from './oc-global';
import { isRetryable } from './retry-policy';
import type { ComponentAnswer } from './types';

export type Attempt =
  | { ok: true; answer: ComponentAnswer }
  | { ok: false; retryable: boolean; failure: RenderFailure; /** What OC's `oc:error` bus event carries. */ raw: unknown };

/**
 * One request for a component. `fetch` is looked up at each call (pages and tests replace it), and
 * only `json()` and `status` of its answer are used, so a stand-in response works too.
 */
export async function fetchAnswer(url: string, headers: Record<string, string>): Promise<Attempt> {
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch (error) {
    const status = statusOf(error);
    return { ok: false, retryable: isRetryable(status), failure: { status, error: messageOf(error) ?? 'The registry could not be reached.' }, raw: error };
  }
  const status = typeof response.status === 'number' ? response.status : undefined;
  let body: ComponentAnswer;
  try {
    body = (await response.json()) as ComponentAnswer;
  } catch (error) {
    return { ok: false, retryable: isRetryable(status), failure: { status, error: `The registry answered ${status ?? 'something'} that is not JSON.` }, raw: error };
  }
  if ((body && typeof body === 'object' && body.error) || (status !== undefined && status >= 400)) {
    const failure: RenderFailure = {
      status,
      code: body?.code,
      error: typeof body?.error === 'string' ? body.error : `The registry answered ${status}.`,
      name: body?.name,
      version: body?.requestVersion,
    };
    return { ok: false, retryable: isRetryable(status), failure, raw: body };
  }
  return { ok: true, answer: body };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

const messageOf = (error: unknown): string | undefined => (error instanceof Error && error.message ? error.message : undefined);
