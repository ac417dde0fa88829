// `npm test` runs this first: the suite drives Debian's Chromium (the browser tests), HAProxy (the
// loopback deployment test) and docker-compose (checks docker-compose.yml). Each one missing is
// installed with apt-get when this process may (root, or sudo without a password); otherwise the
// tests do not start, and the one command to run is printed. CI runs the same `npm test`.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');

/** Each package, and whether the machine has what the tests use of it. */
const NEEDED = [
  { pkg: 'chromium', present: () => ['/usr/bin/chromium', '/usr/bin/chromium-browser'].some((file) => existsSync(file)) },
  { pkg: 'haproxy', present: () => ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].some((file) => existsSync(file)) },
  { pkg: 'docker-compose', present: () => succeeds('docker-compose version') || succeeds('docker compose version') },
];

function succeeds(command) {
  return spawnSync('sh', ['-c', command], { stdio: 'ignore' }).status === 0;
}

const missing = NEEDED.filter(({ present }) => !present()).map(({ pkg }) => pkg);
if (missing.length === 0) process.exit(0);

const install = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = asRoot ? '' : succeeds('command -v sudo && sudo -n true') ? 'sudo ' : undefined;
if (sudo === undefined || !succeeds('command -v apt-get')) {
  process.stderr.write(`The tests need ${missing.join(', ')}, which this machine lacks. Install them, then run npm test again:\n\n  sudo apt-get update && sudo ${install}\n\n`);
  process.exit(1);
}
process.stderr.write(`Installing what the tests need: ${missing.join(', ')} (Debian packages, with apt-get)\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const command of [`${sudo}apt-get update -qq`, `${sudo}${install} -qq`]) {
  const { status } = spawnSync('sh', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (status !== 0) {
    process.stderr.write(`"${command}" failed (exit ${status}); install ${missing.join(', ')} yourself, then run npm test again.\n`);
    process.exit(1);
  }
}
