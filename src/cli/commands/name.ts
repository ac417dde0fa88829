import { ADMIN_USAGE, parseAdminArgs } from '../admin-request';
import { CliError, type Command } from '../command';

interface NameAnswer {
  name: string;
  owner: string | null;
  generation: number;
  history: Array<{ generation: number; tenant: string | null; action: string; date: string; by: string; version?: string }>;
  versions: Array<{ version: string; tenant: string; generation: number }>;
}

export const nameCommand: Command = {
  usage: `Usage: tessera name <show|transfer|release> <name> [<tenant>] --registry <url> [--admin-token <token>]

Who owns a component's name, and the administrator's moves of it.
  name show <name>               its owner, how it came to own it, and the versions served
  name transfer <name> <tenant>  gives the name to another tenant: only that tenant publishes it from now
  name release <name>            frees the name: the next tenant whose patterns cover it claims it by publishing
A name's new owner never reads the cookies its former owner's code left in visitors' browsers.
${ADMIN_USAGE}`,
  async run(argv) {
    const { positionals, client } = parseAdminArgs(argv, 'name', {});
    const [action, name, tenant, ...extra] = positionals;
    if (extra.length > 0 || (action !== 'transfer' && tenant !== undefined)) throw new CliError(`tessera name ${action} takes ${action === 'transfer' ? 'a name and a tenant' : 'one name'}; "${[tenant, ...extra].filter(Boolean).join(' ')}" is too much.`);
    if (!['show', 'transfer', 'release'].includes(action ?? '')) {
      throw new CliError('tessera name needs an action: show, transfer or release, e.g. "tessera name show checkout-cart --registry http://localhost:3030/".');
    }
    if (name === undefined) throw new CliError(`tessera name ${action} needs the component's name, e.g. "tessera name ${action} checkout-cart${action === 'transfer' ? ' payments' : ''}".`);
    const path = `~admin/names/${encodeURIComponent(name)}`;
    let answer: NameAnswer;
    if (action === 'transfer') {
      if (tenant === undefined) throw new CliError(`tessera name transfer needs the tenant to give "${name}" to, e.g. "tessera name transfer ${name} payments".`);
      answer = await client.call<NameAnswer>('PUT', path, { tenant });
    } else {
      answer = await client.call<NameAnswer>(action === 'release' ? 'DELETE' : 'GET', path);
    }
    process.stdout.write(describe(answer));
  },
};

function describe(answer: NameAnswer): string {
  const lines = [`${answer.name}: ${answer.owner === null ? 'released (no owner)' : `owned by ${answer.owner}`} (generation ${answer.generation})`];
  for (const record of answer.history) {
    const who = record.tenant === null ? 'released' : `${record.action} by ${record.tenant}`;
    lines.push(`  ${record.generation}\t${record.date}\t${who}\t(${record.by}${record.version ? `, ${record.version}` : ''})`);
  }
  lines.push(answer.versions.length === 0 ? '  no version served' : `  versions: ${answer.versions.map((v) => `${v.version} (${v.tenant})`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
