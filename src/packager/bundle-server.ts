import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { TesseraError } from '../errors/errors';
import { contentHash } from '../descriptor/content-hash';
import { buildProblems } from '../templates/bundle-view';

/** The authoring module, compiled beside this file; components import it as `oc-server`. */
const OC_SERVER_MODULE = path.join(__dirname, '..', 'oc-server', 'index.js');
/** The registry's own folder (its package's): the only files outside a component that a bundle takes are the authoring module's. */
const INSTALLATION = path.join(__dirname, '..', '..', '..');

export interface ServerBundle {
  code: string;
  hash: string;
  size: number;
  /** Module paths esbuild pulled in (relative to the component), for the dependency policy. */
  inputs: string[];
  /** Its source map (src/tail/source-map.ts reads it): sources relative to the component, without their text. */
  map: string;
}

/**
 * Bundles the server entry with all its dependencies into one CommonJS script that the sandbox
 * evaluates with its own `module`, `exports` and `require`, with its source map beside it (not
 * linked from the script, which stays as it was: a tail reads the map from the package).
 */
export async function bundleServer(componentDir: string, entry: string, minify: boolean, plugins: Plugin[] = []): Promise<ServerBundle> {
  const result = await build({
    entryPoints: [path.join(componentDir, entry)],
    absWorkingDir: componentDir,
    bundle: true,
    write: false,
    // Not written: names the map's sources relative to the component folder.
    outfile: path.join(componentDir, 'server.js'),
    sourcemap: 'external',
    sourcesContent: false,
    metafile: true,
    format: 'cjs',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['node'],
    target: 'es2022',
    alias: { 'oc-server': OC_SERVER_MODULE },
    minify,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins,
  }).catch((error: unknown) => {
    if (error instanceof TesseraError) throw error;
    const cause = (error as { errors?: Array<{ detail?: unknown }> }).errors?.find((e) => e.detail instanceof TesseraError)?.detail;
    if (cause) throw cause;
    throw new TesseraError('PACKAGE_NOT_VALID', `The server entry "${entry}" does not compile.`, { details: { problems: buildProblems(error) } });
  });
  const code = result.outputFiles.find((file) => file.path.endsWith('.js'))!.text;
  const map = result.outputFiles.find((file) => file.path.endsWith('.js.map'))!.text;
  return {
    code,
    hash: contentHash(code),
    size: Buffer.byteLength(code),
    inputs: Object.keys(result.metafile.inputs),
    map: ownSources(map, componentDir),
  };
}

/**
 * The map with the authoring module's sources named `oc-server/<file>`, not by their path from the
 * component to the packager's installation, which differs between machines.
 */
function ownSources(json: string, componentDir: string): string {
  const map = JSON.parse(json) as { sources: string[] };
  map.sources = map.sources.map((source) => {
    const absolute = path.resolve(componentDir, source);
    const outside = (folder: string) => path.relative(folder, absolute).startsWith('..');
    return outside(componentDir) && !outside(INSTALLATION) ? `oc-server/${path.basename(absolute)}` : source;
  });
  return JSON.stringify(map);
}
