import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import { TesseraError } from '../../src/errors/errors';
import { packageComponent } from '../../src/packager/package-component';
import { fixture } from '../helpers/start-registry';

/** The coded error packaging fails with, as a plain object (or a note that it did not fail). */
async function refusal(dir: string, policy = defaultConfig().dependencyPolicy): Promise<unknown> {
  try {
    await packageComponent(dir, { dependencyPolicy: policy });
    return 'packaged';
  } catch (error) {
    return error instanceof TesseraError ? { code: error.code, status: error.status, message: error.message, details: error.details } : error;
  }
}

t.test('Node built-ins, native addons and deny-listed libraries are all named in one DEPENDENCY_NOT_ALLOWED', async (t) => {
  t.same(await refusal(fixture('hostile-requires-builtins')), {
    code: 'DEPENDENCY_NOT_ALLOWED',
    status: 422,
    message:
      'The component depends on modules the registry refuses: ../build/addon.node (a native module), axios (on the registry deny-list), ' +
      'fs (a Node built-in), fs-extra (on the registry deny-list), net (a Node built-in), node:child_process (a Node built-in).',
    details: { dependencies: ['../build/addon.node', 'axios', 'fs', 'fs-extra', 'net', 'node:child_process'] },
  });
});

t.test('the allow-list lifts the deny-list, never node: modules nor native addons', async (t) => {
  const policy = { deny: defaultConfig().dependencyPolicy.deny, allow: ['axios', 'fs-extra'] };
  t.same(await refusal(fixture('hostile-requires-builtins'), policy), {
    code: 'DEPENDENCY_NOT_ALLOWED',
    status: 422,
    message:
      'The component depends on modules the registry refuses: ../build/addon.node (a native module), fs (a Node built-in), ' +
      'net (a Node built-in), node:child_process (a Node built-in).',
    details: { dependencies: ['../build/addon.node', 'fs', 'net', 'node:child_process'] },
  });
});

t.test('installed packages are refused when they build native code, reach a deny-listed library or a built-in name', async (t) => {
  // The fixture keeps its installed packages in installed/; here they become its node_modules.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-policy-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await cp(fixture('hostile-native-dependency'), dir, { recursive: true });
  await cp(path.join(dir, 'installed'), path.join(dir, 'node_modules'), { recursive: true });

  t.same(await refusal(dir), {
    code: 'DEPENDENCY_NOT_ALLOWED',
    status: 422,
    message:
      'The component depends on modules the registry refuses: events (a Node built-in), native-thing (a native module), ' +
      'node-fetch (on the registry deny-list).',
    details: { dependencies: ['events', 'native-thing', 'node-fetch'] },
  });
  t.same(
    await refusal(dir, { deny: [], allow: ['events'] }),
    {
      code: 'DEPENDENCY_NOT_ALLOWED',
      status: 422,
      message: 'The component depends on modules the registry refuses: native-thing (a native module).',
      details: { dependencies: ['native-thing'] },
    },
    'the allowed polyfill of a built-in name is bundled; an empty deny-list still refuses native code',
  );
});
