import t from 'tap';
import { scriptShape } from '../../src/publish/script-shape';

const shape = (code: string, maxLines = 1000, maxDepth = 1000) => scriptShape(Buffer.from(code), maxLines, maxDepth);

t.test('brackets of code count; those in strings, templates, comments and regular expressions do not', async (t) => {
  t.same(shape('f(a[b{c}]);'), { lines: 1, depth: 3 });
  t.same(shape(`var s = "((((" + '[[[[' + \`{{{{\`;`), { lines: 1, depth: 0 });
  t.same(shape('// ((((\n/* [[[[\n{{{{ */ x;'), { lines: 3, depth: 0 });
  t.same(shape('var r = /[(]+\\(/g; x = a / b / (c);'), { lines: 1, depth: 1 });
  t.same(shape('return /((/.test(s);'), { lines: 1, depth: 1 }, 'a `/` after `return` starts a regular expression');
  t.same(shape('#!/usr/bin/env node\n(x)'), { lines: 2, depth: 1 }, 'a hashbang line is a comment');
});

t.test("a template's holes nest, and their code counts", async (t) => {
  t.same(shape('`a${ f(`b${ [c] }`) }d`'), { lines: 1, depth: 4 });
  t.same(shape('`${"}"}` + (x)'), { lines: 1, depth: 1 }, 'a `}` in a string inside a hole does not end it');
});

t.test('lines count line feeds and lone carriage returns, inside strings and templates too', async (t) => {
  t.same(shape('a;\r\nb;\rc;\nd'), { lines: 4, depth: 0 });
  t.same(shape('`one\ntwo`; "three\\\nfour"'), { lines: 3, depth: 0 });
});

t.test('the scan stops at the first bound passed', async (t) => {
  t.same(scriptShape(Buffer.from('0;\n'.repeat(1_000_000)), 10, 10), { lines: 11, depth: 0 });
  t.same(scriptShape(Buffer.from(`${'['.repeat(1_000_000)}`), 10, 10), { lines: 1, depth: 11 });
});

t.test('code read wrongly as a regular expression loses at most its line', async (t) => {
  // `{}/2` is a division; read as the start of a regular expression, the rest of the line is skipped.
  t.same(shape('a = {} / 2; (b);\n((c));'), { lines: 2, depth: 2 });
});
