import { Parser, type Literal, type Node, type Options, type TemplateLiteral } from 'acorn';
import { simple } from 'acorn-walk';
import { TesseraError } from '../errors/errors';

/**
 * One parse reads a CommonJS script (what the packager bundles) and an ES module alike: a script,
 * so that sloppy-mode code (`with`, octal literals, `let` as a name) parses as it runs, with
 * `import`/`export` declarations, `import.meta` and top-level `await` allowed anywhere. Strict
 * mode's extra refusals are the runtime's to make, not the dependency policy's. It used to be a
 * script parse, then a module parse when that failed: a script with a syntax error at its end was
 * read whole twice.
 */
const PARSE_OPTIONS: Options = {
  ecmaVersion: 'latest',
  sourceType: 'script',
  allowImportExportEverywhere: true,
  allowReturnOutsideFunction: true,
  allowHashBang: true,
  allowAwaitOutsideFunction: true,
};

/**
 * acorn, except where it runs out of stack. acorn catches a stack overflow in every expression it
 * parses and tests the error's message with a regular expression, there, at the deepest point;
 * V8 compiling that expression with no stack left has ended the whole process ("RegExpCompiler
 * Allocation failed": Node 20, a main thread, about 300 nested `f(function(){`). Here the overflow
 * unwinds to `requiredModules`, where the stack is shallow again, and is answered as nesting too
 * deep rather than as a syntax error. (`catchStackOverflow` is acorn's own, undocumented: were it
 * renamed, acorn's "Not enough stack space" would answer PACKAGE_NOT_VALID, and the tests say so.)
 */
class StackSafeParser extends Parser {
  catchStackOverflow<T>(parse: () => T): T {
    return parse();
  }
}

/**
 * The modules a server script really loads, read from its syntax tree (decisions §7): each
 * `require("…")` call and `import("…")` with a literal name, and the `import`/`export … from` of
 * a module. A string that merely contains `require('fs')` is not a call, so it is not counted.
 * A computed name (`require(name)`) cannot be read here; the sandbox refuses it at run time.
 */
export function requiredModules(code: string): string[] {
  const found = new Set<string>();
  const literal = (node: Node | null | undefined): void => {
    const name =
      node?.type === 'Literal'
        ? (node as Literal).value
        : node?.type === 'TemplateLiteral' && (node as TemplateLiteral).expressions.length === 0
          ? (node as TemplateLiteral).quasis[0]?.value.cooked
          : undefined;
    if (typeof name === 'string') found.add(name);
  };
  try {
    simple(StackSafeParser.parse(code, PARSE_OPTIONS), {
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length >= 1) literal(node.arguments[0]);
      },
      ImportExpression: (node) => literal(node.source),
      ImportDeclaration: (node) => literal(node.source),
      ExportNamedDeclaration: (node) => literal(node.source),
      ExportAllDeclaration: (node) => literal(node.source),
    });
  } catch (error) {
    throw unreadable(error);
  }
  return [...found];
}

/** Why the script could not be read: its syntax, or nesting deeper than the parser's stack (brackets or not: `!!!…`, `a=b=…`). */
function unreadable(error: unknown): TesseraError {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new TesseraError('PACKAGE_TOO_COMPLEX', 'server.js nests its code deeper than the registry can parse (unary operators, chained assignments, arrows and brackets all count).', {
      details: { bound: 'serverScriptNesting' },
    });
  }
  const problem = `server.js is not valid JavaScript: ${(error as Error).message}`;
  return new TesseraError('PACKAGE_NOT_VALID', 'The server script cannot be parsed.', { details: { problems: [problem] } });
}
