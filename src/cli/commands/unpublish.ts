import { parseArgs } from 'node:util';
import { CliError, type Command } from '../command';
import { parseVersionId, registryAndToken, sendLifecycleRequest } from '../lifecycle-request';

export const unpublishCommand: Command = {
  usage: `Usage: tessera unpublish <name>@<version> --registry <url> [--token <token>]

Unpublishes one version: the registry answers 410 GONE for it from then on, and version
expressions ("latest", "1.x") resolve to the other versions. Its number is never published again.
The tenant that published it may, within the registry's unpublishWindowHours (72 by default) of
the publish; the administrator may at any time.
  --registry <url>   the registry's address, e.g. http://localhost:3030/
  --token <token>    your publish token (or the administrator's); TESSERA_TOKEN is used when this is absent
Exits with a non-zero code when the registry refuses, printing its answer.`,
  async run(argv) {
    const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { registry: { type: 'string' }, token: { type: 'string' } } });
    if (positionals.length > 1) throw new CliError('tessera unpublish takes one <name>@<version>.');
    const { name, version } = parseVersionId('unpublish', positionals[0]);
    const { registry, token } = registryAndToken('unpublish', values);
    const id = `${name}@${version}`;
    await sendLifecycleRequest(registry, token, { method: 'DELETE', path: `${encodeURIComponent(name)}/${encodeURIComponent(version)}`, id });
    process.stdout.write(`Unpublished ${id} from ${registry.href}\n`);
  },
};
