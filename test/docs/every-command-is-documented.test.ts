import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readDoc, REPO_ROOT } from './docs-helpers';

t.test('every command of the tessera binary has its section in docs/reference/cli.md', async (t) => {
  const main = readFileSync(path.join(REPO_ROOT, 'src', 'cli', 'main.ts'), 'utf8');
  const table = main.slice(main.indexOf('const COMMANDS'), main.indexOf('};', main.indexOf('const COMMANDS')));
  const commands = [...table.matchAll(/^ {2}([a-z]+): \{ summary:/gm)].map((m) => m[1]!);
  t.ok(commands.includes('start') && commands.includes('dev'), `the commands are found (${commands.join(', ')})`);

  const page = readDoc('docs/reference/cli.md');
  const adminSource = readFileSync(path.join(REPO_ROOT, 'src', 'cli', 'admin-request.ts'), 'utf8');
  const adminUsage = /ADMIN_USAGE = `([^`]*)`;/.exec(adminSource)![1]!;
  const sections = [...page.matchAll(/^## tessera ([a-z]+)$/gm)].map((m) => m[1]!);
  t.same([...sections].sort(), [...commands].sort(), 'one section per command, and no other');
  for (const command of commands) {
    t.match(page, new RegExp(`^\\| \\[\`${command}\`\\]`, 'm'), `${command} is in the commands table`);
    // Read from the source, not imported: a command's module may load the packager's bundler and sandbox.
    const source = readFileSync(path.join(REPO_ROOT, 'src', 'cli', 'commands', `${command}.ts`), 'utf8');
    const usage = /usage: `([^`]*)`,\n/.exec(source)?.[1]?.replace('${ADMIN_USAGE}', adminUsage);
    t.ok(usage !== undefined && page.includes(usage), `${command}'s usage text is in the page as the command prints it`);
  }
});
