import t from 'tap';
import { TesseraError } from '../../src/errors/errors';
import { Parser } from 'acorn';
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

t.test('a script is parsed once, even one whose syntax error is at its end', async (t) => {
  const parse = Parser.prototype.parse;
  let parses = 0;
  Parser.prototype.parse = function (this: Parser, ...args: Parameters<typeof parse>) {
    parses += 1;
    return parse.apply(this, args);
  };
  t.teardown(() => {
    Parser.prototype.parse = parse;
  });
  const error = t.throws(() => requiredModules(`${'0;\n'.repeat(1000)}0 0`)) as TesseraError;
  t.equal(error.code, 'PACKAGE_NOT_VALID');
  t.equal(parses, 1);
  t.same(requiredModules('import "a"; module.exports = require("b");'), ['a', 'b'], 'imports and requires mixed, in one parse');
  t.equal(parses, 2);
});

t.test('code nested past the parser\'s stack is too complex, answered without ending the process', async (t) => {
  // About 300 nested function calls ended a main thread's process when acorn caught its own stack overflow.
  for (const code of [`${'f(function(){'.repeat(5000)}${'})'.repeat(5000)}`, `x = ${'!'.repeat(200_000)}0`]) {
    const error = t.throws(() => requiredModules(code)) as TesseraError;
    t.equal(error.code, 'PACKAGE_TOO_COMPLEX');
    t.same(error.details, { bound: 'serverScriptNesting' });
  }
});
