import t from 'tap';
import { cliPublishRegistry, runCli, workFolder } from './run-cli';

t.test('publish prints the registry\'s exact refusal and exits with 1', async (t) => {
  const work = await workFolder(t);
  const url = await cliPublishRegistry(t);
  t.equal((await runCli(['init', 'cli-refused'], { cwd: work })).code, 0);
  const publish = (token: string) => runCli(['publish', 'cli-refused', '--registry', url, '--token', token], { cwd: work });

  const wrongToken = await publish('wrong-token');
  t.equal(wrongToken.code, 1);
  t.match(
    wrongToken.stderr,
    'Error: The registry refused cli-refused@1.0.0 (401 UNAUTHORIZED): A valid publish token is required: send "Authorization: Bearer <token>".\n' +
      'Check the token: pass --token <token> or set TESSERA_TOKEN to the token your registry administrator gave you.\n',
  );

  t.equal((await publish('cli-token')).code, 0);
  const again = await publish('cli-token');
  t.equal(again.code, 1);
  t.match(
    again.stderr,
    'Error: The registry refused cli-refused@1.0.0 (409 ALREADY_EXISTS): cli-refused@1.0.0 is already published; versions are immutable.\n' +
      'Versions are immutable: raise "version" in package.json, then publish again.\n',
  );
});
