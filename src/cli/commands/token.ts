import type { StoredToken } from '../../tenants/tenant-records';
import { ADMIN_USAGE, parseAdminArgs } from '../admin-request';
import { CliError, type Command } from '../command';

type ListedToken = Omit<StoredToken, 'sha256'> & { revokedAt?: string };

export const tokenCommand: Command = {
  usage: `Usage: tessera token <create|list|revoke> [<tenant>|<id>] --registry <url> [--admin-token <token>]

Manages tenants' publish tokens, with the registry's admin token.
  token create <tenant>        a new token for the tenant; its secret is printed this once, keep it
  token list [--tenant <name>] the tokens (ids, never secrets), revoked ones marked
  token revoke <id>            refuses the token on every replica from their next storage poll
${ADMIN_USAGE}`,
  async run(argv) {
    const { positionals, values, client } = parseAdminArgs(argv, 'token', { tenant: { type: 'string' } });
    const [action, target, ...extra] = positionals;
    if (extra.length > 0) throw new CliError(`tessera token ${action} takes one argument; "${extra.join(' ')}" is too much.`);
    if (action === 'list') {
      const tenant = values.tenant as string | undefined;
      const { tokens } = await client.call<{ tokens: ListedToken[] }>('GET', `~admin/tokens${tenant === undefined ? '' : `?tenant=${encodeURIComponent(tenant)}`}`);
      for (const token of tokens) process.stdout.write(`${token.id}\t${token.tenant}\tcreated ${token.createdAt}${token.revokedAt ? `\trevoked ${token.revokedAt}` : ''}\n`);
      return;
    }
    if (action === 'create') {
      if (target === undefined) throw new CliError('tessera token create needs the tenant\'s name, e.g. "tessera token create checkout".');
      const created = await client.call<ListedToken & { token: string }>('POST', `~admin/tenants/${encodeURIComponent(target)}/tokens`);
      process.stdout.write(`Created token ${created.id} for tenant ${created.tenant}.\n${created.token}\n`);
      process.stderr.write('This is the only time the secret is shown: give it to the tenant now (they pass it as --token or TESSERA_TOKEN).\n');
      return;
    }
    if (action === 'revoke') {
      if (target === undefined) throw new CliError('tessera token revoke needs the token\'s id, e.g. "tessera token revoke 3f2a9c0d1e4b5a6c" (see "tessera token list").');
      const revoked = await client.call<ListedToken>('DELETE', `~admin/tokens/${encodeURIComponent(target)}`);
      process.stdout.write(`Revoked token ${revoked.id} of tenant ${revoked.tenant} (${revoked.revokedAt}).\n`);
      return;
    }
    throw new CliError('tessera token needs an action: create, list or revoke, e.g. "tessera token list --registry http://localhost:3030/".');
  },
};
