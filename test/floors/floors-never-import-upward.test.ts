import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/start-registry';

/** Every TypeScript file under a folder of the repository, with the repository paths it imports. */
function importsUnder(folder: string): Array<{ file: string; imports: string[] }> {
  const root = path.join(REPO_ROOT, folder);
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => {
      const absolute = path.join(root, file);
      const { importedFiles } = ts.preProcessFile(readFileSync(absolute, 'utf8'), true, true);
      const imports = importedFiles
        .map((imported) => imported.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => path.relative(REPO_ROOT, path.resolve(path.dirname(absolute), name)).split(path.sep).join('/'));
      return { file: `${folder}/${file.split(path.sep).join('/')}`, imports };
    });
}

/** `from` files importing anything under one of `forbidden`, as "file → import" lines. */
function violations(from: string, forbidden: string[]): string[] {
  return importsUnder(from).flatMap(({ file, imports }) =>
    imports.filter((imported) => forbidden.some((folder) => imported === folder || imported.startsWith(`${folder}/`))).map((imported) => `${file} → ${imported}`),
  );
}

t.test('the runtime never imports the packager or the command line', async (t) => {
  for (const floor of ['src/front', 'src/pipeline', 'src/catalog', 'src/sandbox', 'src/storage', 'src/publish', 'src/metrics', 'src/templates', 'src/descriptor', 'src/dependency-policy', 'src/fronts']) {
    t.same(violations(floor, ['src/packager', 'src/cli']), [], floor);
  }
});

t.test('front threads wire whole registries together: no floor of a registry imports them', async (t) => {
  for (const floor of ['src/front', 'src/pipeline', 'src/catalog', 'src/sandbox', 'src/storage', 'src/publish', 'src/metrics']) {
    t.same(violations(floor, ['src/fronts']), [], floor);
  }
});

t.test('nothing below imports from above: front → pipeline → sandbox/catalog → storage', async (t) => {
  t.same(violations('src/pipeline', ['src/front', 'src/publish']), [], 'the pipeline');
  for (const floor of ['src/catalog', 'src/sandbox']) t.same(violations(floor, ['src/front', 'src/pipeline', 'src/publish']), [], floor);
  t.same(violations('src/storage', ['src/front', 'src/pipeline', 'src/catalog', 'src/sandbox', 'src/publish']), [], 'storage');
});

t.test('the front never builds sandbox objects; the packager never loads the sandbox prelude', async (t) => {
  t.same(violations('src/front', ['src/sandbox']), [], 'the front');
  t.same(violations('src/packager', ['workers']), [], 'the packager');
});

t.test('the runtime knows template types by their names only: it never loads a compiler (esbuild stays with the packager)', async (t) => {
  const compilers = /^src\/templates\/(.+\/compile|bundle-view|template-compiler|build-vendor-files)$/;
  for (const floor of ['src/front', 'src/pipeline', 'src/catalog', 'src/sandbox', 'src/storage', 'src/publish', 'src/metrics']) {
    const loaded = importsUnder(floor).flatMap(({ file, imports }) => imports.filter((imported) => compilers.test(imported)).map((imported) => `${file} → ${imported}`));
    t.same(loaded, [], floor);
  }
  const infos = importsUnder('src/templates').filter(({ file }) => /\/(info|template-types|template-wrapper|vendor-files)\.ts$/.test(file));
  t.same(
    infos.flatMap(({ file, imports }) => imports.filter((imported) => compilers.test(imported)).map((imported) => `${file} → ${imported}`)),
    [],
    "the types' runtime side",
  );
});
