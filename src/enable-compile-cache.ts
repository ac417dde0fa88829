import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

// Every process (the front, each sandbox host, each CLI run) compiles the registry's modules again
// when it starts. Node's compile cache keeps V8's code cache on disk (in the temporary folder, or
// NODE_COMPILE_CACHE), checked against each file's content, and saves about a fifth of a start's CPU.
// Loaded first by each entry point, so that the modules after it are cached. V8 refuses code cached
// by a process started with Node's snapshot in one started without it (--no-node-snapshot, which
// isolated-vm needs), and the other way round: a process started with it (Node's test runner itself)
// keeps its own apart, or each would make the other compile every module they share again.
const folder = process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'node-compile-cache');
module.enableCompileCache?.(process.execArgv.includes('--no-node-snapshot') ? folder : path.join(folder, 'with-node-snapshot'));
