import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import { TesseraError } from '../../src/errors/errors';
import { checkPackagedComponent } from '../../src/dependency-policy/dependency-policy-check';

const policy = defaultConfig().dependencyPolicy;

/** A server bundle packed elsewhere, as OC's packager leaves it: built-ins stay as requires. */
const BUNDLE = [
  'var fs = require("fs");',
  "var cp = require('node:child_process');",
  'var pad = require("left-pad");',
  'var lazy = require(name);',
  'module.exports.data = function (context, callback) { callback(null, {}); };',
].join('\n');

t.test('a packed package is checked on its declared dependencies and the requires left in its server bundle', async (t) => {
  const error = t.throws(() => checkPackagedComponent({ dependencies: { ws: '^8.0.0', semver: '^7.0.0' } }, BUNDLE, policy)) as TesseraError;
  t.ok(error instanceof TesseraError);
  t.equal(error.code, 'DEPENDENCY_NOT_ALLOWED');
  t.equal(error.status, 422);
  t.same(error.details, { dependencies: ['fs', 'node:child_process', 'ws'] }, 'each offender once; left-pad and the computed require are not the policy\'s business');
  t.equal(error.message, 'The component depends on modules the registry refuses: fs (a Node built-in), node:child_process (a Node built-in), ws (on the registry deny-list).');
});

t.test('a package within the policy passes', async (t) => {
  t.doesNotThrow(() => checkPackagedComponent({ dependencies: { semver: '^7.0.0' } }, 'module.exports.data = (c, cb) => cb(null, {});', policy));
  t.doesNotThrow(() => checkPackagedComponent({}, undefined, policy), 'a static component has no server bundle');
});
