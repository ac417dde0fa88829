#!/usr/bin/env node
'use strict';
// isolated-vm needs Node started with --no-node-snapshot; re-run ourselves with it when missing.
if (!process.execArgv.includes('--no-node-snapshot')) {
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, ['--no-node-snapshot', ...process.execArgv, __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  require('../dist/src/cli/main.js').main(process.argv.slice(2));
}
