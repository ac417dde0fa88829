import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/start-registry';

/** Every TypeScript file under `folder` (fixtures left out: components, not the project's code), with what it imports. */
function importsUnder(folder: string): Array<{ file: string; imports: string[] }> {
  return readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.split(path.sep).includes('fixtures'))
    .map((file) => {
      const source = readFileSync(path.join(REPO_ROOT, folder, file), 'utf8');
      return { file: `${folder}/${file.split(path.sep).join('/')}`, imports: ts.preProcessFile(source, true, true).importedFiles.map((imported) => imported.fileName) };
    });
}

// A process that ends while isolated-vm tears an isolate down can abort: the sandbox hosts and the
// reader of server entries are the only processes that load it, and their owners kill them.
t.test('outside the sandbox hosts, only the process that reads server entries loads isolated-vm', async (t) => {
  const files = [...importsUnder('src'), ...importsUnder('test')];
  t.same(
    files.filter(({ imports }) => imports.includes('isolated-vm')).map(({ file }) => file),
    ['src/packager/server-definition-child.ts'],
  );
  t.same(
    files.filter(({ imports }) => imports.some((name) => name.endsWith('/server-definition-child'))).map(({ file }) => file),
    ['src/packager/read-server-definition.ts'],
    'one file names the reader',
  );
  const reader = readFileSync(path.join(REPO_ROOT, 'src/packager/read-server-definition.ts'), 'utf8');
  t.match(reader, /^import type \{[^}]+\} from '\.\/server-definition-child';$/m, 'and imports only its types: it forks it');
});
