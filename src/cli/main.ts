import { devCommand } from './commands/dev';
import { initCommand } from './commands/init';
import { packageCommand } from './commands/package';
import { publishCommand } from './commands/publish';
import { startCommand } from './commands/start';
import { describeFailure, type Command } from './command';

const COMMANDS: Record<string, Command> = {
  start: startCommand,
  init: initCommand,
  package: packageCommand,
  publish: publishCommand,
  dev: devCommand,
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
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
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
