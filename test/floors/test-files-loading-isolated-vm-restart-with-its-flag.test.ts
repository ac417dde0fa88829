import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/start-registry';

const GUARD = 'test/helpers/isolated-vm-in-this-process.ts';

const importsOf = new Map<string, string[]>();

/** The static imports of a TypeScript file (`import type` and `import()` load nothing at its start), as repository paths or package names. */
function staticImports(file: string): string[] {
  let imports = importsOf.get(file);
  if (imports === undefined) importsOf.set(file, (imports = parseImports(file)));
  return imports;
}

function parseImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || statement.moduleSpecifier === undefined) return [];
    if (ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly : statement.isTypeOnly) return [];
    const name = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!name.startsWith('.')) return [name];
    const resolved = path.resolve(path.dirname(file), name);
    return [`${resolved}.ts`, path.join(resolved, 'index.ts')].filter((candidate) => existsSync(candidate));
  });
}

/** The files among `files` and all they import that load isolated-vm, through their static imports. */
function loadingIsolatedVm(files: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of staticImports(file)) if (imported.endsWith('.ts')) visit(imported);
  };
  files.forEach(visit);
  const loading = new Set([...seen].filter((file) => staticImports(file).includes('isolated-vm')));
  for (let grew = true; grew; ) {
    grew = false;
    for (const file of seen) {
      if (!loading.has(file) && staticImports(file).some((imported) => loading.has(imported))) {
        loading.add(file);
        grew = true;
      }
    }
  }
  return loading;
}

// `npm test` starts test files with Node's snapshot, which isolated-vm cannot run beside.
t.test('a test file that loads isolated-vm into its own process imports, first, what restarts it with --no-node-snapshot', async (t) => {
  const testFiles = readdirSync(path.join(REPO_ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join(REPO_ROOT, 'test', file));
  const reaching = loadingIsolatedVm(testFiles);
  const loading = testFiles.filter((file) => reaching.has(file));
  t.ok(loading.length > 0, `the packager's tests load it (${loading.length} files)`);
  t.same(
    loading.filter((file) => staticImports(file)[0] !== path.join(REPO_ROOT, GUARD)).map((file) => path.relative(REPO_ROOT, file)),
    [],
    `each imports ${GUARD} before anything else`,
  );
});
