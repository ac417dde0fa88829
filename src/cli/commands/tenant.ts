import type { Tenant, TenantQuotas } from '../../tenants/tenant-records';
import { ADMIN_USAGE, countOption, parseAdminArgs } from '../admin-request';
import { CliError, type Command } from '../command';

interface ShownTenant extends Tenant {
  usage: { storageBytes: number; versions: number; publishesThisHour: number; liveTokens: number };
}

export const tenantCommand: Command = {
  usage: `Usage: tessera tenant <add|list|show> [<name>] --registry <url> [--admin-token <token>]

Manages the registry's tenants (teams that publish components), with its admin token.
  tenant add <name> --components <patterns>   creates a tenant; patterns are comma-separated, * matches any run
      [--storage-bytes <n>] [--versions-per-component <n>] [--publishes-per-hour <n>]   its quotas
      [--weight <n>]                           its weight in the sandbox's fair share (default 1)
  tenant list                                  the tenants, one a line
  tenant show <name>                           a tenant, its quotas and what it uses of them
${ADMIN_USAGE}`,
  async run(argv) {
    const { positionals, values, client } = parseAdminArgs(argv, 'tenant', {
      components: { type: 'string' },
      'storage-bytes': { type: 'string' },
      'versions-per-component': { type: 'string' },
      'publishes-per-hour': { type: 'string' },
      weight: { type: 'string' },
    });
    const [action, name, ...extra] = positionals;
    if (extra.length > 0) throw new CliError(`tessera tenant ${action} takes one name; "${extra.join(' ')}" is too much.`);
    if (action === 'list') {
      const { tenants } = await client.call<{ tenants: Tenant[] }>('GET', '~admin/tenants');
      for (const tenant of tenants) process.stdout.write(`${tenant.name}\t${tenant.components.join(',')}\t${quotasLine(tenant.quotas)}\n`);
      return;
    }
    if (action !== 'add' && action !== 'show') throw new CliError('tessera tenant needs an action: add, list or show, e.g. "tessera tenant list --registry http://localhost:3030/".');
    if (name === undefined) throw new CliError(`tessera tenant ${action} needs the tenant's name, e.g. "tessera tenant ${action} checkout".`);
    if (action === 'show') {
      const tenant = await client.call<ShownTenant>('GET', `~admin/tenants/${encodeURIComponent(name)}`);
      process.stdout.write(showLines(tenant));
      return;
    }
    const components = values.components;
    if (typeof components !== 'string' || components === '') throw new CliError('tessera tenant add needs --components <patterns>, e.g. --components "checkout-*,cart".');
    const quotas: TenantQuotas = {
      storageBytes: countOption('storage-bytes', values['storage-bytes'] as string | undefined),
      versionsPerComponent: countOption('versions-per-component', values['versions-per-component'] as string | undefined),
      publishesPerHour: countOption('publishes-per-hour', values['publishes-per-hour'] as string | undefined),
    };
    const weightText = values.weight as string | undefined;
    const weight = weightText === undefined ? undefined : Number(weightText);
    if (weight !== undefined && !(weight > 0)) throw new CliError(`--weight must be a number above 0, not "${weightText}".`);
    const body = { name, components: components.split(',').map((pattern) => pattern.trim()), quotas: JSON.parse(JSON.stringify(quotas)) as TenantQuotas, weight };
    const tenant = await client.call<Tenant>('POST', '~admin/tenants', body);
    process.stdout.write(`Created tenant ${tenant.name}: components ${tenant.components.join(', ')}; ${quotasLine(tenant.quotas)}\n`);
  },
};

function quotasLine(quotas: TenantQuotas): string {
  const parts = [
    quotas.storageBytes === undefined ? undefined : `storage ${quotas.storageBytes} bytes`,
    quotas.versionsPerComponent === undefined ? undefined : `${quotas.versionsPerComponent} versions per component`,
    quotas.publishesPerHour === undefined ? undefined : `${quotas.publishesPerHour} publishes per hour`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? 'no quotas' : parts.join(', ');
}

function showLines(tenant: ShownTenant): string {
  const limit = (value: number | undefined): string => (value === undefined ? '' : ` of ${value}`);
  return [
    `Tenant ${tenant.name} (revision ${tenant.revision}, ${tenant.updatedAt} by ${tenant.updatedBy})`,
    `  components: ${tenant.components.join(', ')}`,
    `  weight: ${tenant.weight ?? 'configured or 1'}`,
    `  storage: ${tenant.usage.storageBytes} bytes${limit(tenant.quotas.storageBytes)}`,
    `  versions: ${tenant.usage.versions}${tenant.quotas.versionsPerComponent === undefined ? '' : ` (at most ${tenant.quotas.versionsPerComponent} per component)`}`,
    `  publishes this hour: ${tenant.usage.publishesThisHour}${limit(tenant.quotas.publishesPerHour)}`,
    `  live tokens: ${tenant.usage.liveTokens}`,
    '',
  ].join('\n');
}
