import { parse, type Literal, type Node, type Options, type TemplateLiteral } from 'acorn';
import { simple } from 'acorn-walk';
import { TesseraError } from '../errors/errors';

const PARSE_OPTIONS: Options = { ecmaVersion: 'latest', allowReturnOutsideFunction: true, allowHashBang: true, allowAwaitOutsideFunction: true };

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
  simple(parseEither(code), {
    CallExpression(node) {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length >= 1) literal(node.arguments[0]);
    },
    ImportExpression: (node) => literal(node.source),
    ImportDeclaration: (node) => literal(node.source),
    ExportNamedDeclaration: (node) => literal(node.source),
    ExportAllDeclaration: (node) => literal(node.source),
  });
  return [...found];
}

/** A CommonJS script (what the packager bundles), else an ES module. */
function parseEither(code: string): Node {
  try {
    return parse(code, { ...PARSE_OPTIONS, sourceType: 'script' });
  } catch {
    try {
      return parse(code, { ...PARSE_OPTIONS, sourceType: 'module' });
    } catch (error) {
      const problem = `server.js is not valid JavaScript: ${(error as Error).message}`;
      throw new TesseraError('PACKAGE_NOT_VALID', 'The server script cannot be parsed.', { details: { problems: [problem] } });
    }
  }
}
