import { parseArgs } from 'node:util';
import { packTarball } from '../../packager/pack-tarball';
import { packageComponent, writePackage } from '../../packager/package-component';
import { CliError, type Command } from '../command';
import { componentFolder } from '../component-folder';
import { registryUrl } from '../registry-url';
import { uploadPackage } from '../upload-package';

/** What to do about each refusal the registry may answer. */
const ADVICE: Record<string, string> = {
  UNAUTHORIZED: 'Check the token: pass --token <token> or set TESSERA_TOKEN to the token your registry administrator gave you.',
  FORBIDDEN: "The token's tenant may not publish this name: rename the component inside your scope, or ask the registry administrator.",
  ALREADY_EXISTS: 'Versions are immutable: raise "version" in package.json, then publish again.',
  PACKAGE_NOT_VALID: 'Fix the problems listed above, then publish again.',
  PAYLOAD_TOO_LARGE: 'Make the package smaller (large static files are the usual cause), or ask for a higher limits.publishBytes.',
  DEPENDENCY_NOT_ALLOWED: 'Remove or replace the dependencies listed above: the registry refuses them.',
};

export const publishCommand: Command = {
  usage: `Usage: tessera publish <dir> --registry <url> [--token <token>] [--dry-run]

Packages the component (as "tessera package" does), packs it and uploads it to the registry.
  --registry <url>   the registry's address, e.g. http://localhost:3030/
  --token <token>    your publish token; TESSERA_TOKEN is used when this is absent
  --dry-run          let the registry check the package without storing it
Exits with a non-zero code when the registry refuses the package, printing its answer.`,
  async run(argv) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { registry: { type: 'string' }, token: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
    });
    if (positionals.length !== 1) throw new CliError('tessera publish needs exactly one component folder, e.g. "tessera publish ./my-component --registry http://localhost:3030/".');
    if (values.registry === undefined) throw new CliError("tessera publish needs the registry's address: add --registry <url>, e.g. --registry http://localhost:3030/.");
    const registry = registryUrl(values.registry);
    const token = values.token ?? process.env.TESSERA_TOKEN;
    if (!token) throw new CliError('No publish token: pass --token <token> or set TESSERA_TOKEN (your registry administrator gives tokens out).');
    const dryRun = values['dry-run'];

    const dir = componentFolder(positionals[0]!);
    const packaged = await packageComponent(dir);
    await writePackage(dir, packaged);
    const { name, version } = packaged.descriptor;
    const id = `${name}@${version}`;
    const tarball = await packTarball(packaged.files);

    const target = new URL(`${encodeURIComponent(name)}/${encodeURIComponent(version)}${dryRun ? '?dryRun=true' : ''}`, registry);
    const progress = progressLine(`Uploading ${id} to ${registry.href}`);
    const answer = await uploadPackage(target, tarball, token, progress).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(`Cannot reach the registry at ${registry.href} (${error.code ?? error.message}): check --registry and that the registry is running.`);
    });
    process.stderr.write('\n');

    if (answer.status === 201) process.stdout.write(`Published ${id}: ${new URL(`${name}/${version}`, registry).href}\n`);
    else if (answer.status === 200 && dryRun) process.stdout.write(`Dry run: the registry accepts ${id}; nothing was stored.\n`);
    else throw new CliError(refusal(id, answer.status, answer.body));
  },
};

/** A progress line on stderr, rewritten in place on a terminal and written once at the end otherwise. */
function progressLine(label: string): (sent: number, total: number) => void {
  return (sent, total) => {
    const line = `${label}: ${Math.floor((sent / total) * 100)}% (${kilobytes(sent)} of ${kilobytes(total)})`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
    else if (sent === total) process.stderr.write(line);
  };
}

const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

/** The registry's answer verbatim (code, sentence, problems, dependencies), then what to do. */
function refusal(id: string, status: number, body: string): string {
  let answer: { code?: string; error?: string; details?: { problems?: unknown[]; dependencies?: unknown[] } };
  try {
    answer = JSON.parse(body) as typeof answer;
  } catch {
    return `The registry refused ${id} with status ${status}: ${body.slice(0, 500)}`;
  }
  const lines = [`The registry refused ${id} (${status} ${answer.code ?? 'no code'}): ${answer.error ?? body}`];
  for (const problem of answer.details?.problems ?? []) lines.push(`  - ${String(problem)}`);
  for (const dependency of answer.details?.dependencies ?? []) lines.push(`  - ${typeof dependency === 'string' ? dependency : JSON.stringify(dependency)}`);
  const advice = answer.code === undefined ? undefined : ADVICE[answer.code];
  if (advice) lines.push(advice);
  return lines.join('\n');
}
