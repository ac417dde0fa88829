import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/start-registry';
import { workFolder } from './run-cli';

// `npm ci && npm start` is the newcomer's first command: the build belongs to the install, so that
// the start serves the demo at once; the tests and later starts build only when a source changed.
t.test('npm ci, npm start and npm test build first, only when a source changed since the last build', async (t) => {
  const scripts = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  for (const step of ['prepare', 'prestart']) t.equal(scripts[step], 'node scripts/build-when-stale.js', step);
  // The tests first install the Debian packages they use when missing (scripts/test-prerequisites.js).
  t.equal(scripts.pretest, 'node scripts/test-prerequisites.js && node scripts/build-when-stale.js', 'pretest');

  // A project of its own whose build leaves a mark, with the same script.
  const dir = await workFolder(t);
  await mkdir(path.join(dir, 'scripts'));
  await copyFile(path.join(REPO_ROOT, 'scripts', 'build-when-stale.js'), path.join(dir, 'scripts', 'build-when-stale.js'));
  const build = "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/.built','');require('fs').appendFileSync('builds','x')";
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'stale-check', private: true, scripts: { build: `node -e "${build}"` } }));
  const buildsSoFar = async () => (existsSync(path.join(dir, 'builds')) ? (await readFile(path.join(dir, 'builds'), 'utf8')).length : 0);
  const run = () => spawnSync(process.execPath, ['scripts/build-when-stale.js'], { cwd: dir, encoding: 'utf8' });

  let result = run();
  t.equal(result.status, 0, 'an install before the sources are there (a Docker layer) succeeds');
  t.equal(await buildsSoFar(), 0, 'and builds nothing');

  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'src', 'a.ts'), 'export {};\n');
  result = run();
  t.equal(result.status, 0, 'the build succeeds');
  t.equal(await buildsSoFar(), 1, 'never built: builds');

  t.equal(run().status, 0);
  t.equal(await buildsSoFar(), 1, 'nothing changed since: no build');

  const later = new Date(Date.now() + 60_000);
  await utimes(path.join(dir, 'src', 'a.ts'), later, later);
  t.equal(run().status, 0);
  t.equal(await buildsSoFar(), 2, 'a source changed: builds again');

  await rm(path.join(dir, 'src', 'a.ts'));
  t.equal(run().status, 0);
  t.equal(await buildsSoFar(), 3, 'a source removed (its folder changed): builds again');
});
