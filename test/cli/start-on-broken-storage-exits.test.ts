import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/start-registry';
import { runCli, workFolder } from './run-cli';

// Each start has already forked its sandbox hosts when storage fails it: the process must still
// end, with a sentence, rather than hang with the hosts running and no port open.
t.test('start on storage it cannot use says so and exits', async (t) => {
  const dir = await workFolder(t);
  // A file where the storage folder should be: nothing in it can be listed.
  const file = path.join(dir, 'not-a-folder');
  await writeFile(file, 'x');
  // A file where the demo's first version would be stored: listing works, the demo's write fails.
  const blocked = path.join(dir, 'blocked');
  const { name, version } = JSON.parse(await readFile(path.join(REPO_ROOT, 'demo', 'components', 'hello-world', 'package.json'), 'utf8')) as { name: string; version: string };
  await mkdir(path.join(blocked, 'components', name), { recursive: true });
  await writeFile(path.join(blocked, 'components', name, version), 'x');

  const [unreadable, unwritable] = await Promise.all([
    runCli(['start', '--port', '0', '--storage', file]),
    runCli(['start', '--with-demo', '--port', '0', '--storage', blocked]),
  ]);
  t.equal(unreadable.code, 1, 'unreadable storage: start exits 1');
  t.equal(unreadable.stderr, `Error: The storage at ${file} cannot be read: ENOTDIR: not a directory, scandir '${file}/.staging'.\n`);
  t.equal(unwritable.code, 1, 'unwritable demo: start exits 1');
  t.match(
    unwritable.stderr,
    new RegExp(`^Error: The demo components cannot be published to ${blocked}: ENOTDIR: not a directory, rename '[^']+' -> '${path.join(blocked, 'components', name, version)}'\\.\\n$`),
  );
  t.notMatch(unwritable.stdout, /Tessera registry on/, 'it never served');
});
