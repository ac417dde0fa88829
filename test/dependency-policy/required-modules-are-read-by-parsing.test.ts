import t from 'tap';
import { TesseraError } from '../../src/errors/errors';
import { requiredModules } from '../../src/dependency-policy/required-modules';

t.test('calls with a literal name count; strings, comments and computed names do not', async (t) => {
  const code = [
    '#!/usr/bin/env node',
    'var fs = require("fs");',
    "var cp = require('node:child_process');",
    'var tpl = require(`left-pad`);',
    'var lazy = require(name);',
    'var dynamic = import("node:net");',
    'var text = "require(\'http\')";',
    '// require("net")',
    '/* require("dgram") */',
    'var o = { require: function () {} }; o.require("tls");',
    'return module.exports;',
  ].join('\n');
  t.same(requiredModules(code), ['fs', 'node:child_process', 'left-pad', 'node:net']);
});

t.test('an ES module is read through its import and export declarations', async (t) => {
  t.same(requiredModules('import fs from "fs"; export { x } from "./x.js"; export * from "ws"; await import("undici");'), ['fs', './x.js', 'ws', 'undici']);
});

t.test('a script that does not parse is not a valid package', async (t) => {
  const error = t.throws(() => requiredModules('module.exports = {')) as TesseraError;
  t.equal(error.code, 'PACKAGE_NOT_VALID');
  t.equal(error.message, 'The server script cannot be parsed.');
  t.same(error.details, { problems: ['server.js is not valid JavaScript: Unexpected token (1:18)'] });
});
