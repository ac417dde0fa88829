// `npm ci` (its `prepare` step), `npm start` and `npm test` run this first: it builds only when a
// source changed since the last build, so that a start right after `npm ci`, a second start, or the
// tests after an install, do not pay for a compile (`npm run build` always builds from scratch).
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const STAMP = path.join(root, 'dist', '.built');
const SOURCES = ['src', 'workers', 'bin', 'test', 'bench', 'tsconfig.json', 'package.json', 'package-lock.json'];

// Notes (the benchmark records its results in bench/README.md) are not built: they never trigger a build.
const NOT_BUILT = /\.md$/;

function newest(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return NOT_BUILT.test(file) ? 0 : stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(file)) if (entry !== 'node_modules') latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

// An install before the sources are there (a Docker layer of package.json alone) has nothing to build.
if (!statSync(path.join(root, 'src'), { throwIfNoEntry: false })) process.exit(0);

const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (SOURCES.some((source) => newest(path.join(root, source)) > built)) {
  const { status } = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exitCode = status ?? 1;
}
