// `npm test` runs this before the suite. Every test file's process loads tap, and tap's Test class
// carries each plugin it was built with: npm installs it built with all of tap's defaults (mocks,
// snapshots, fixtures, TypeScript…), of which the tests use four, and tap's own runner (`npx tap` on
// one file) the filter's options: package.json `tap.plugin` drops the others. tap rebuilds the class
// only when its own runner starts, and `npm test` runs the files with Node's: this rebuilds it when
// it does not match package.json (about 4 s, once after an install). Each test process then loads
// tap in about 40 ms less CPU, 8 s of the suite's CPU.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

async function main() {
  const { TapConfig } = require('@tapjs/config');
  const config = await TapConfig.load();
  const { signature } = require('@tapjs/test/test-built');
  if (config.pluginSignature === signature) return;
  // What `tap build` runs, without its npm look-ups for plugins that are not installed (all are).
  const generator = path.join(path.dirname(require.resolve('@tapjs/test/package.json')), 'dist', 'esm', 'build.mjs');
  const { status } = spawnSync(process.execPath, [generator, ...config.pluginList], { cwd: path.join(__dirname, '..'), stdio: 'inherit' });
  process.exitCode = status ?? 1;
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
