import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/start-registry';

/**
 * A circle of imports makes a reader hold every file of it at once, and a value imported across one
 * may be read before its module has run. Type-only imports count too: a type shared by two files
 * belongs to the one below, or to a file of its own.
 */
const FOLDERS = ['src', 'workers', 'bench'];
/** Component folders: packaged by the packager, not part of the registry's own import graph. */
const NOT_SOURCE = /(^|\/)(node_modules|components|oc-components)\//;

/** Every TypeScript source file of the folders, repository-relative with `/`. */
function sourceFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !NOT_SOURCE.test(file)),
  );
}

/** The source file a relative import names, if it is one of ours. */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.posix.join(path.posix.dirname(from), specifier);
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(path.join(REPO_ROOT, candidate)));
}

/** Each file's imports of other files of ours, type-only imports and re-exports included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(REPO_ROOT, file), 'utf8'), true, true);
    const imports = importedFiles.filter(({ fileName }) => fileName.startsWith('.')).flatMap(({ fileName }) => resolve(file, fileName) ?? []);
    graph.set(file, [...new Set(imports)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const imported of graph.get(file) ?? []) {
      if (!index.has(imported)) {
        visit(imported);
        low.set(file, Math.min(low.get(file)!, low.get(imported)!));
      } else if (onStack.has(imported)) {
        low.set(file, Math.min(low.get(file)!, index.get(imported)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1 || graph.get(file)?.includes(file)) found.push(members.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

t.test('no file of src/, workers/ or bench/ imports, even a type, from a file that imports it back', async (t) => {
  const graph = importGraph();
  t.ok(graph.size > 100, 'the graph holds the sources');
  t.ok(graph.get('src/pipeline/render.ts')?.includes('src/pipeline/execution-input.ts'), 'imports are resolved to files');
  t.same(circles(graph), []);
});

t.test('a circle is found, type-only imports included', async (t) => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['a.ts']],
  ]);
  t.same(circles(graph), [['a.ts', 'b.ts', 'c.ts']]);
  t.same(circles(new Map([['a.ts', ['a.ts']]])), [['a.ts']]);
});
