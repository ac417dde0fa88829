import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './command';
import { registryUrl } from './registry-url';

/** What the admin commands share: where the registry is and the admin token. */
export const ADMIN_OPTIONS = {
  registry: { type: 'string' },
  'admin-token': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const ADMIN_USAGE = `  --registry <url>       the registry's address, e.g. http://localhost:3030/
  --admin-token <token>  the registry's admin token; TESSERA_ADMIN_TOKEN is used when this is absent`;

/** A registry's `/~admin/` routes, asked with the admin token. */
export interface AdminClient {
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/** What to do about each refusal an admin route may answer. */
const ADVICE: Record<string, string> = {
  UNAUTHORIZED: 'Check the admin token: pass --admin-token <token> or set TESSERA_ADMIN_TOKEN; the registry must configure its sha256 (adminTokenSha256).',
  ALREADY_EXISTS: 'Pick another name, or look at the existing one with "tessera tenant show <name>".',
};

/** Parses the admin commands' arguments: positionals, their own options and the shared ones. */
export function parseAdminArgs<O extends ParseArgsConfig['options']>(argv: string[], command: string, options: O) {
  const parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...ADMIN_OPTIONS, ...options } });
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const registry = values.registry;
  if (typeof registry !== 'string') throw new CliError(`tessera ${command} needs the registry's address: add --registry <url>, e.g. --registry http://localhost:3030/.`);
  const base = registryUrl(registry);
  const token = (values['admin-token'] as string | undefined) ?? process.env.TESSERA_ADMIN_TOKEN;
  if (!token) throw new CliError('No admin token: pass --admin-token <token> or set TESSERA_ADMIN_TOKEN.');
  return { positionals: parsed.positionals, values: parsed.values, client: adminClient(base, token) };
}

function adminClient(base: URL, token: string): AdminClient {
  return {
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await fetch(new URL(path, base), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new CliError(`Cannot reach the registry at ${base.href} (${cause?.code ?? cause?.message ?? (error as Error).message}): check --registry and that the registry is running.`);
      }
      const text = await response.text();
      let answer: { code?: string; error?: string; details?: Record<string, unknown> };
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        throw new CliError(`The registry answered ${response.status} with no JSON: ${text.slice(0, 500)}`);
      }
      if (response.ok) return answer as T;
      const lines = [`The registry refused (${response.status} ${answer.code ?? 'no code'}): ${answer.error ?? text}`];
      const advice = answer.code === undefined ? undefined : ADVICE[answer.code];
      if (advice) lines.push(advice);
      throw new CliError(lines.join('\n'));
    },
  };
}

/** A whole number option (`--publishes-per-hour 10`), or an error naming it. */
export function countOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a whole number, not "${value}".`);
  return Number(value);
}
