import t from 'tap';
import { request } from '../helpers/start-registry';
import { cliEnv, cliPublishRegistry, runCli, workFolder } from './run-cli';

t.test('tessera deprecate and tessera unpublish change a published version, and print the registry\'s refusals', async (t) => {
  const work = await workFolder(t);
  const url = await cliPublishRegistry(t);
  const initialized = await runCli(['init', 'cli-lifecycle'], { cwd: work });
  t.same({ code: initialized.code, signal: initialized.signal, stderr: initialized.stderr }, { code: 0, signal: null, stderr: '' });
  const published = await runCli(['publish', 'cli-lifecycle', '--registry', url, '--token', 'cli-token'], { cwd: work });
  t.same({ code: published.code, signal: published.signal }, { code: 0, signal: null }, published.stderr);
  // The package's size moves with its date, packed into it: all of it sent, whatever it is.
  t.match(published.stderr, new RegExp(`^Uploading cli-lifecycle@1\\.0\\.0 to ${url.replace(/[.]/g, '\\.')}: 100% \\((\\d+\\.\\d) kB of \\1 kB\\)\n$`));

  const deprecated = await runCli(['deprecate', 'cli-lifecycle@1.0.0', '--message', 'Use 2.x instead', '--registry', url, '--token', 'cli-token']);
  t.equal(deprecated.code, 0, deprecated.stderr);
  t.equal(deprecated.stdout, `Deprecated cli-lifecycle@1.0.0 on ${url}: Use 2.x instead\n`);
  const info = await request(`${url}cli-lifecycle/1.0.0/~info`);
  t.equal(info.body.state, 'deprecated');
  t.equal(info.body.deprecation.message, 'Use 2.x instead');

  const undone = await runCli(['deprecate', 'cli-lifecycle@1.0.0', '--undo', '--registry', url], { env: cliEnv({ TESSERA_TOKEN: 'cli-token' }) });
  t.equal(undone.code, 0, undone.stderr);
  t.equal(undone.stdout, `cli-lifecycle@1.0.0 is no longer deprecated on ${url}\n`);
  t.equal((await request(`${url}cli-lifecycle/1.0.0/~info`)).body.deprecation, undefined);

  const wrongToken = await runCli(['unpublish', 'cli-lifecycle@1.0.0', '--registry', url, '--token', 'wrong-token']);
  t.equal(wrongToken.code, 1);
  t.equal(
    wrongToken.stderr,
    'Error: The registry refused cli-lifecycle@1.0.0 (401 UNAUTHORIZED): A valid token is required: send "Authorization: Bearer <token>" with a publish token of the tenant that published the version, or the administrator\'s.\n' +
      "Check the token: pass --token <token> or set TESSERA_TOKEN to your tenant's publish token (or the administrator's).\n",
  );
  t.equal((await request(`${url}cli-lifecycle/1.0.0`)).status, 200, 'still published');

  const unpublished = await runCli(['unpublish', 'cli-lifecycle@1.0.0', '--registry', url, '--token', 'cli-token']);
  t.equal(unpublished.code, 0, unpublished.stderr);
  t.equal(unpublished.stdout, `Unpublished cli-lifecycle@1.0.0 from ${url}\n`);
  t.equal((await request(`${url}cli-lifecycle/1.0.0`)).status, 410);

  const twice = await runCli(['unpublish', 'cli-lifecycle@1.0.0', '--registry', url, '--token', 'cli-token']);
  t.equal(twice.code, 1);
  t.equal(
    twice.stderr,
    'Error: The registry refused cli-lifecycle@1.0.0 (410 GONE): cli-lifecycle@1.0.0 was unpublished; other versions: none.\nThe version was unpublished already.\n',
  );
});

t.test('wrong arguments are explained before anything is sent', async (t) => {
  const noVersion = await runCli(['unpublish', 'cli-lifecycle', '--registry', 'http://127.0.0.1:1/', '--token', 'x']);
  t.equal(noVersion.code, 1);
  t.equal(noVersion.stderr, 'Error: tessera unpublish needs one exact version as <name>@<version>, e.g. "tessera unpublish my-component@1.0.0 --registry http://localhost:3030/".\n');
  const neither = await runCli(['deprecate', 'cli-lifecycle@1.0.0', '--registry', 'http://127.0.0.1:1/', '--token', 'x']);
  t.equal(neither.code, 1);
  t.equal(neither.stderr, 'Error: tessera deprecate needs either --message "<why>" or --undo.\n');
  const noToken = await runCli(['unpublish', 'cli-lifecycle@1.0.0', '--registry', 'http://127.0.0.1:1/']);
  t.equal(noToken.code, 1);
  t.equal(noToken.stderr, "Error: No token: pass --token <token> or set TESSERA_TOKEN (a publish token of the version's tenant, or the administrator's).\n");
});
