import { parseArgs } from 'node:util';
import { CliError, type Command } from '../command';
import { registryUrl } from '../registry-url';
import { serverSentEvents } from '../tail/server-sent-events';
import { jsonLine, prettyLines, type ExecutionEvent } from '../tail/tail-line';

/** Waits before connecting again: from a second, doubling to ten. */
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 10_000;

export const tailCommand: Command = {
  usage: `Usage: tessera tail <pattern> --registry <url> [--token <token>] [--status <filter>] [--sample <rate>] [--format pretty|json]

Prints each execution of your tenant's components matching <pattern> ("shop-*") as it happens on
the registry: its outcome, duration, CPU time, trace id, console lines and uncaught exception.
Another tenant's component rendered inside yours shows its outcome only.
  --registry <url>     the registry's address, e.g. http://localhost:3030/
  --token <token>      your publish token (or the administrator's: every tenant's); TESSERA_TOKEN is used when this is absent
  --status <filter>    only these: ok, error, error codes, statuses (500) or classes (5xx), comma-separated
  --sample <rate>      only this share of them, greater than 0 and at most 1 (0.1: one in ten)
  --format <format>    pretty (the default in a terminal, coloured) or json (one JSON line each; the default otherwise)
Connects again, with a note on stderr, when the registry restarts or drains; stops when the
registry refuses the tail (a revoked token, another tenant's pattern) or on Ctrl-C.`,
  async run(argv) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { registry: { type: 'string' }, token: { type: 'string' }, status: { type: 'string' }, sample: { type: 'string' }, format: { type: 'string' } },
    });
    if (positionals.length !== 1) throw new CliError('tessera tail takes one component name pattern, e.g. "tessera tail \'shop-*\' --registry http://localhost:3030/".');
    if (values.registry === undefined) throw new CliError('tessera tail needs the registry\'s address: add --registry <url>, e.g. --registry http://localhost:3030/.');
    const registry = registryUrl(values.registry);
    const token = values.token ?? process.env.TESSERA_TOKEN;
    if (!token) throw new CliError("No token: pass --token <token> or set TESSERA_TOKEN (a publish token of your tenant, or the administrator's).");
    const format = values.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
    if (format !== 'pretty' && format !== 'json') throw new CliError(`--format is pretty or json, not "${format}".`);
    const url = tailUrl(registry, positionals[0]!, values.status, values.sample);
    const print = format === 'json' ? jsonLine : (event: ExecutionEvent) => prettyLines(event, process.stdout.isTTY === true);
    await follow(url, token, (event) => process.stdout.write(print(event)));
  },
};

/** `GET /~tail` with the filters: `--status` items that are statuses go to `status`, the others (ok, error, codes) to `outcome`. */
function tailUrl(registry: URL, pattern: string, status: string | undefined, sample: string | undefined): URL {
  const url = new URL('~tail', registry);
  url.searchParams.set('pattern', pattern);
  const items = (status ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');
  const statuses = items.filter((item) => /^[1-5]([0-9]{2}|xx)$/i.test(item));
  const outcomes = items.filter((item) => !statuses.includes(item));
  if (statuses.length > 0) url.searchParams.set('status', statuses.join(','));
  if (outcomes.length > 0) url.searchParams.set('outcome', outcomes.join(','));
  if (sample !== undefined) url.searchParams.set('sample', sample);
  return url;
}

const note = (text: string): void => void process.stderr.write(`tessera tail: ${text}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads the tail, and connects again whenever the stream ends for a reason that passes (the
 * registry restarts, drains or cannot be reached); a refusal of the tail itself ends the command.
 */
async function follow(url: URL, token: string, print: (event: ExecutionEvent) => void): Promise<void> {
  let wait = FIRST_WAIT_MS;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    } catch (error) {
      note(`cannot reach ${url.origin} (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}); trying again in ${wait / 1000} s`);
      await pause(wait);
      wait = Math.min(wait * 2, LONGEST_WAIT_MS);
      continue;
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { code?: string; error?: string };
      if (response.status === 503) {
        note(`the registry is not ready (${body.code ?? response.status}); trying again in ${wait / 1000} s`);
        await pause(wait);
        wait = Math.min(wait * 2, LONGEST_WAIT_MS);
        continue;
      }
      throw new CliError(`The registry refused the tail (${response.status} ${body.code ?? 'no code'}): ${body.error ?? response.statusText}`);
    }
    let ended: { code?: string; error?: string } | undefined;
    try {
      for await (const event of serverSentEvents(response.body!)) {
        if (event.type === 'open') {
          if (wait > FIRST_WAIT_MS) note('connected again');
          wait = FIRST_WAIT_MS;
        } else if (event.type === 'execution') print(event.data as ExecutionEvent);
        else if (event.type === 'dropped') note(`${(event.data as { count: number }).count} executions were dropped: this reader fell behind`);
        else if (event.type === 'end') ended = event.data as typeof ended;
      }
    } catch {
      // the connection broke: the registry restarted or went away
    }
    if (ended?.code === 'UNAUTHORIZED') throw new CliError(`The registry ended the tail (${ended.code}): ${ended.error ?? ''}`);
    note(ended?.code === 'NOT_READY' ? 'the registry drains; connecting again' : 'the stream ended; connecting again');
    await pause(wait);
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
  }
}
