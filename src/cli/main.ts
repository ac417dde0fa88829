import { describeFailure, type Command } from './command';

/**
 * Each command is loaded when run: `tessera start` never loads the packager's bundler and
 * sandbox, which a registry that only serves would hold in memory for nothing.
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  start: { summary: 'Start the registry', load: async () => (await import('./commands/start')).startCommand },
  init: { summary: 'Create a component folder ready to package and publish', load: async () => (await import('./commands/init')).initCommand },
  package: { summary: 'Package a component folder into <dir>/_package', load: async () => (await import('./commands/package')).packageCommand },
  publish: { summary: 'Package a component folder and publish it to a registry', load: async () => (await import('./commands/publish')).publishCommand },
  unpublish: { summary: 'Unpublish a version from a registry (its tenant, within the window; or the administrator)', load: async () => (await import('./commands/unpublish')).unpublishCommand },
  deprecate: { summary: 'Deprecate a version on a registry, with a message (or take it back with --undo)', load: async () => (await import('./commands/deprecate')).deprecateCommand },
  tenant: { summary: "Add, list and show a registry's tenants (admin token)", load: async () => (await import('./commands/tenant')).tenantCommand },
  token: { summary: "Create, list and revoke tenants' publish tokens (admin token)", load: async () => (await import('./commands/token')).tokenCommand },
  name: { summary: "Show who owns a component's name; transfer or release it (admin token)", load: async () => (await import('./commands/name')).nameCommand },
  tail: { summary: "Print your tenant's executions live: outcomes, console lines, exceptions", load: async () => (await import('./commands/tail')).tailCommand },
  dev: { summary: 'Serve component folders on a local registry, rebuilding them as they change', load: async () => (await import('./commands/dev')).devCommand },
};

const USAGE = `Usage: tessera <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)}${command.summary}`)
  .join('\n')}

Run "tessera <command> --help" for a command's options.`;

/** Entry of the `tessera` binary. */
export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`Unknown command "${name}".\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return;
  }
  try {
    await command.run(rest);
  } catch (error) {
    process.stderr.write(`${describeFailure(error)}\n`);
    process.exitCode = 1;
  }
}
