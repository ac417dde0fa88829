#!/usr/bin/env node
'use strict';
// The sandbox needs Node.js 24 (the project installs it as its `node` dependency) started with the
// registry's flags (src/node-flags.ts): re-run ourselves with them when any is missing.
const { NODE_FLAGS } = require('../dist/src/node-flags.js');
const major = Number(process.versions.node.split('.')[0]);
const missing = NODE_FLAGS.filter((flag) => !process.execArgv.includes(flag));
if (major < 24 || missing.length > 0) {
  const path = require('node:path');
  const { spawn } = require('node:child_process');
  let node = process.execPath;
  if (major < 24) {
    try {
      node = require.resolve('node/bin/node', { paths: [path.join(__dirname, '..')] });
    } catch {
      process.stderr.write(`Tessera needs Node.js 24 or later (this is ${process.version}); run \`npm ci\` in the repository first, which installs it.\n`);
      process.exit(1);
    }
  }
  const args = [...missing, ...process.execArgv, __filename, ...process.argv.slice(2)];
  if (typeof process.execve === 'function') {
    // The same process, started again with the flags (and Node.js 24, when this one is older but
    // can exec): no launcher is left beside the registry to hold 40 MB and relay its signals, and
    // its process id is the registry's.
    process.execve(node, [node, ...args], process.env);
  }
  const child = spawn(node, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  require('../dist/src/enable-compile-cache.js');
  require('../dist/src/cli/main.js').main(process.argv.slice(2));
}
