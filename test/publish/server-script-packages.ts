import { contentHash } from '../../src/descriptor/content-hash';
import { packTarball } from '../../src/packager/pack-tarball';
import { GREETING, packagedFiles, withDescriptor } from './publish-helpers';

/**
 * The greeting fixture packed as `name`@`version` with `server` as its server script: the
 * descriptor records the script's true size and sha1, so the package reaches every check a real
 * one does (the bounds, the parse), as a hostile upload crafted to do so would.
 */
export async function packedWithServer(name: string, version: string, server: Buffer): Promise<Buffer> {
  const files = await packagedFiles(GREETING);
  files.set('server.js', server);
  return packTarball(
    await withDescriptor((descriptor) => {
      Object.assign(descriptor, { name, version });
      descriptor.oc.files.dataProvider = { ...descriptor.oc.files.dataProvider, hashKey: contentHash(server), size: server.length };
    }, files),
  );
}

/** The confirmed attack: 19 MB of `0;` lines ending in a syntax error (its gzip tarball is about 20 KB). */
export const ZEROS_19_MB = (): Buffer => Buffer.concat([Buffer.from('0;\n'.repeat((19 * 1024 * 1024) / 3)), Buffer.from('0 0\n')]);

/** `depth` nested arrays around one value: a small file the parser would recurse through. */
export const nestedArrays = (depth: number): Buffer => Buffer.from(`module.exports = ${'['.repeat(depth)}0${']'.repeat(depth)};\n`);

/**
 * `bytes` of bare statements on a few long lines, within every bound read before parsing (size,
 * lines, nesting): only parsing it finds that its tree needs far more than a publish thread's heap
 * (about 70 times its size).
 */
export function denseStatements(bytes: number): Buffer {
  const line = `${'0;'.repeat(50_000)}\n`;
  return Buffer.from(line.repeat(Math.ceil(bytes / line.length)));
}
