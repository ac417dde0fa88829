import { parseArgs } from 'node:util';
import { CliError, type Command } from '../command';
import { parseVersionId, registryAndToken, sendLifecycleRequest } from '../lifecycle-request';

export const deprecateCommand: Command = {
  usage: `Usage: tessera deprecate <name>@<version> --message "<why>" --registry <url> [--token <token>]
       tessera deprecate <name>@<version> --undo --registry <url> [--token <token>]

Deprecates one version: it keeps rendering, with a "Deprecation" header, and its ~info and page in
the registry's web UI show the message. --undo takes the deprecation back. The tenant that
published the version or the administrator may.
  --message <text>   why, and what to use instead (at most 1000 characters)
  --undo             the version is no longer deprecated
  --registry <url>   the registry's address, e.g. http://localhost:3030/
  --token <token>    your publish token (or the administrator's); TESSERA_TOKEN is used when this is absent
Exits with a non-zero code when the registry refuses, printing its answer.`,
  async run(argv) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { registry: { type: 'string' }, token: { type: 'string' }, message: { type: 'string' }, undo: { type: 'boolean', default: false } },
    });
    if (positionals.length > 1) throw new CliError('tessera deprecate takes one <name>@<version>; quote a message of several words: --message "…".');
    const { name, version } = parseVersionId('deprecate', positionals[0]);
    if (values.undo === (values.message !== undefined)) throw new CliError('tessera deprecate needs either --message "<why>" or --undo.');
    const { registry, token } = registryAndToken('deprecate', values);
    const id = `${name}@${version}`;
    const path = `${encodeURIComponent(name)}/${encodeURIComponent(version)}/~deprecate`;
    if (values.undo) {
      await sendLifecycleRequest(registry, token, { method: 'DELETE', path, id });
      process.stdout.write(`${id} is no longer deprecated on ${registry.href}\n`);
      return;
    }
    await sendLifecycleRequest(registry, token, { method: 'POST', path, body: { message: values.message }, id });
    process.stdout.write(`Deprecated ${id} on ${registry.href}: ${values.message}\n`);
  },
};
