import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { TesseraError } from '../errors/errors';
import { contentHash } from '../descriptor/content-hash';
import { buildProblems } from '../templates/bundle-view';

/** The authoring module, compiled beside this file; components import it as `oc-server`. */
const OC_SERVER_MODULE = path.join(__dirname, '..', 'oc-server', 'index.js');

export interface ServerBundle {
  code: string;
  hash: string;
  size: number;
  /** Module paths esbuild pulled in (relative to the component), for the dependency policy. */
  inputs: string[];
}

/**
 * Bundles the server entry with all its dependencies into one CommonJS script that the sandbox
 * evaluates with its own `module`, `exports` and `require`.
 */
export async function bundleServer(componentDir: string, entry: string, minify: boolean, plugins: Plugin[] = []): Promise<ServerBundle> {
  const result = await build({
    entryPoints: [path.join(componentDir, entry)],
    absWorkingDir: componentDir,
    bundle: true,
    write: false,
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
  const code = result.outputFiles[0]!.text;
  return {
    code,
    hash: contentHash(code),
    size: Buffer.byteLength(code),
    inputs: Object.keys(result.metafile.inputs),
  };
}
