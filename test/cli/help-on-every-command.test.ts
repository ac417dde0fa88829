import t from 'tap';
import { runCli } from './run-cli';

t.test('--help on every command', async (t) => {
  const main = await runCli(['--help']);
  t.equal(main.code, 0);
  const commands = ['start', 'init', 'package', 'publish', 'unpublish', 'deprecate', 'tenant', 'token', 'name', 'dev'];
  const helps = await Promise.all(commands.map((command) => runCli([command, '--help'])));
  commands.forEach((command, i) => {
    t.match(main.stdout, new RegExp(`^  ${command} `, 'm'), `${command} is listed`);
    t.equal(helps[i]!.code, 0, command);
    t.match(helps[i]!.stdout, new RegExp(`^Usage: tessera ${command} `), command);
  });
});
