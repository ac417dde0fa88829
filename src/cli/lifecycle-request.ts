import { CliError } from './command';
import { registryUrl } from './registry-url';

/** What to do about each refusal of an unpublish or a deprecation. */
const ADVICE: Record<string, string> = {
  UNAUTHORIZED: "Check the token: pass --token <token> or set TESSERA_TOKEN to your tenant's publish token (or the administrator's).",
  FORBIDDEN: "Only the tenant that published the version (within the unpublish window, to unpublish) or the registry's administrator may do this.",
  NOT_FOUND: 'Check the name and the exact version: "tessera <command> <name>@<version>".',
  GONE: 'The version was unpublished already.',
};

/** `<name>@<version>` as given on the command line. */
export function parseVersionId(command: string, value: string | undefined): { name: string; version: string } {
  const at = value?.lastIndexOf('@') ?? -1;
  if (value === undefined || at <= 0 || at === value.length - 1) {
    throw new CliError(`tessera ${command} needs one exact version as <name>@<version>, e.g. "tessera ${command} my-component@1.0.0 --registry http://localhost:3030/".`);
  }
  return { name: value.slice(0, at), version: value.slice(at + 1) };
}

/** The registry's address (`--registry`) and the token (`--token`, else TESSERA_TOKEN), checked. */
export function registryAndToken(command: string, values: { registry?: string | undefined; token?: string | undefined }): { registry: URL; token: string } {
  if (values.registry === undefined) throw new CliError(`tessera ${command} needs the registry's address: add --registry <url>, e.g. --registry http://localhost:3030/.`);
  const registry = registryUrl(values.registry);
  const token = values.token ?? process.env.TESSERA_TOKEN;
  if (!token) throw new CliError('No token: pass --token <token> or set TESSERA_TOKEN (a publish token of the version\'s tenant, or the administrator\'s).');
  return { registry, token };
}

/** Sends one lifecycle request; answers the registry's JSON on success, throws its refusal (code, sentence, advice) otherwise. */
export async function sendLifecycleRequest(
  registry: URL,
  token: string,
  request: { method: 'DELETE' | 'POST'; path: string; body?: unknown; id: string },
): Promise<Record<string, unknown>> {
  const target = new URL(request.path, registry);
  const answer = await fetch(target, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  }).catch((error: Error & { cause?: NodeJS.ErrnoException }) => {
    throw new CliError(`Cannot reach the registry at ${registry.href} (${error.cause?.code ?? error.message}): check --registry and that the registry is running.`);
  });
  const text = await answer.text();
  let body: { code?: string; error?: string } & Record<string, unknown>;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new CliError(`The registry answered ${request.id} with status ${answer.status}: ${text.slice(0, 500)}`);
  }
  if (answer.ok) return body;
  const lines = [`The registry refused ${request.id} (${answer.status} ${body.code ?? 'no code'}): ${body.error ?? text}`];
  const advice = body.code === undefined ? undefined : ADVICE[body.code];
  if (advice) lines.push(advice);
  throw new CliError(lines.join('\n'));
}
