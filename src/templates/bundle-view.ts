import path from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { TesseraError } from '../errors/errors';

/** The registry's own `node_modules`: the JSX runtimes and renderers every component of a type shares. */
export const REGISTRY_MODULES = path.join(__dirname, '..', '..', '..', 'node_modules');

/** A file of `src/templates/` that is bundled into components (the types' glue code, plain JavaScript). */
export const templateFile = (...segments: string[]): string => path.join(__dirname, '..', '..', '..', 'src', 'templates', ...segments);

export interface ViewBundleRequest {
  componentDir: string;
  /** The module bundled: the author's view, or a type's glue file that imports it as `tessera:view`. */
  entry: string;
  /** The author's view as `tessera:view`: a file (relative to the component) or generated source. */
  view?: { file: string } | { contents: string };
  /** The view file as the author named it, for error messages. */
  src: string;
  minify: boolean;
  /** For the browser (`browser` fields and conditions) or for the sandbox (no Node either way). */
  target: 'browser' | 'sandbox';
  /** Extra esbuild options of the type: JSX runtime, aliases, defines, plugins. */
  options?: Pick<BuildOptions, 'jsx' | 'jsxImportSource' | 'alias' | 'define' | 'plugins'>;
}

export interface ViewBundle {
  /** A script defining `__view`, the module's exports. */
  code: string;
  /** The import paths as written in the component's own modules (not in its dependencies), for telling a view's form apart. */
  imports: string[];
}

/** Bundles a view (or a type's glue around it) into one script with no imports left. */
export async function bundleView(request: ViewBundleRequest): Promise<ViewBundle> {
  const { componentDir, view, options } = request;
  const plugins: Plugin[] = [...(options?.plugins ?? [])];
  if (view) plugins.push(viewModule(componentDir, view));
  const result = await build({
    entryPoints: [request.entry],
    absWorkingDir: componentDir,
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    globalName: '__view',
    platform: 'neutral',
    mainFields: request.target === 'browser' ? ['browser', 'module', 'main'] : ['module', 'main'],
    conditions: request.target === 'browser' ? ['browser'] : [],
    // A view may import what the registry provides (preact, react) without installing it.
    nodePaths: [REGISTRY_MODULES],
    target: 'es2020',
    minify: request.minify,
    legalComments: 'none',
    logLevel: 'silent',
    ...options,
    define: { 'process.env.NODE_ENV': '"production"', ...options?.define },
    plugins,
  }).catch((error: unknown) => {
    throw new TesseraError('PACKAGE_NOT_VALID', `The template "${request.src}" does not compile.`, { details: { problems: buildProblems(error) } });
  });
  const imports = Object.entries(result.metafile.inputs)
    .filter(([file]) => !file.includes('node_modules/') && !file.startsWith('..'))
    .flatMap(([, input]) => input.imports.map((i) => i.original ?? i.path));
  return { code: result.outputFiles[0]!.text, imports };
}

/** Resolves `tessera:view`, the author's view as the type's glue imports it. */
function viewModule(componentDir: string, view: { file: string } | { contents: string }): Plugin {
  return {
    name: 'tessera-view',
    setup(build) {
      build.onResolve({ filter: /^tessera:view$/ }, () =>
        'file' in view ? { path: path.resolve(componentDir, view.file) } : { path: 'view', namespace: 'tessera-view' },
      );
      build.onLoad({ filter: /.*/, namespace: 'tessera-view' }, () => ({ contents: 'contents' in view ? view.contents : '', loader: 'js', resolveDir: componentDir }));
    },
  };
}

/** esbuild's failures as one sentence each, without host paths. */
export function buildProblems(error: unknown): string[] {
  const errors = (error as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> }).errors;
  if (!errors) return [String((error as Error).message ?? error)];
  return errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text));
}
