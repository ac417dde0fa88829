import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { HOST_NODE_FLAGS } from '../../src/node-flags';
import { REPO_ROOT } from '../helpers/start-registry';

const HOST_FILE = path.join(REPO_ROOT, 'dist', 'workers', 'sandbox-host.js');

/** Node's own modules loaded once every module the compiled host file requires is loaded, as a host process starts. */
function builtinsOfTheHostsModules(): string[] {
  const required = [...readFileSync(HOST_FILE, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]!);
  const script = [
    `const load = require('node:module').createRequire(${JSON.stringify(HOST_FILE)});`,
    `for (const name of ${JSON.stringify(required)}) load(name);`,
    `process.stdout.write(JSON.stringify(process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice(13))));`,
  ].join('\n');
  // A script given on the command line would load crypto itself (Node's eval does): it comes on stdin.
  const child = spawnSync(process.execPath, [...HOST_NODE_FLAGS, '-'], { input: script, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`The host's modules did not load: ${child.stderr}`);
  return JSON.parse(child.stdout) as string[];
}

// Every sandbox host a registry starts, or starts again after a loss, pays its start in CPU: the
// wrapper's UUID loaded node:crypto (about 20 of Node's modules, about 4 ms of CPU) into
// hosts that may never wrap anything. Its first UUID loads it now (src/ids/random-uuid.ts).
t.test("a sandbox host's modules load without node:crypto", async (t) => {
  const builtins = builtinsOfTheHostsModules();
  t.ok(builtins.includes('net'), 'the check sees what the host loads (its socket)');
  t.same(builtins.filter((name) => name === 'crypto' || name.startsWith('internal/crypto/')), [], 'and no crypto');
});
