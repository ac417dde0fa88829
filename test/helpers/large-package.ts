import { randomBytes } from 'node:crypto';
import { contentHash } from '../../src/descriptor/content-hash';
import type { PackagedComponent } from '../../src/packager/package-component';

export interface LargePackageSizes {
  /** The server bundle, padded to about this size. */
  serverBytes: number;
  /** Static files in all, in files of `staticFileBytes`. */
  staticBytes: number;
  staticFileBytes?: number;
}

/** What the registry was measured with: a 1.2 MB server bundle and 5 MB of static files (a 4.4 MB upload). */
export const BIG_TENANT: LargePackageSizes = { serverBytes: 1_200_000, staticBytes: 5_000_000 };

/**
 * A big tenant's package, grown from a real packaged component (`base`, with server logic and a
 * static folder) and published as `name`@`version`: its server bundle padded with real code to
 * `serverBytes` (a table inside a function that nothing calls: the dependency policy's parser reads
 * all of it, the sandbox compiles it lazily), and incompressible static files (as images and fonts
 * are) in its first static folder (`public` when it has none). The descriptor names the bundle's new hash and size.
 */
export function largePackage(base: PackagedComponent, name: string, version: string, sizes: LargePackageSizes): Map<string, Buffer> {
  const files = new Map(base.files);
  const descriptor = structuredClone(base.descriptor);
  const server = Buffer.concat([files.get('server.js')!, paddingCode(sizes.serverBytes - files.get('server.js')!.length)]);
  files.set('server.js', server);
  descriptor.name = name;
  descriptor.version = version;
  descriptor.oc.files.dataProvider = { ...descriptor.oc.files.dataProvider!, hashKey: contentHash(server), size: server.length };
  const folder = descriptor.oc.files.static[0] ?? 'public';
  descriptor.oc.files.static = [...new Set([...descriptor.oc.files.static, folder])];
  const fileBytes = sizes.staticFileBytes ?? 500_000;
  for (let index = 0, left = sizes.staticBytes; left > 0; index++, left -= fileBytes) {
    files.set(`${folder}/large/asset-${index}.bin`, randomBytes(Math.min(fileBytes, left)));
  }
  files.set('package.json', Buffer.from(JSON.stringify(descriptor, null, 2)));
  return files;
}

/** About `bytes` of JavaScript: rows of a table, built by a function no one calls. */
function paddingCode(bytes: number): Buffer {
  const rows: string[] = [];
  let length = 0;
  for (let id = 0; length < bytes; id++) {
    const row = `{id:${id},label:"row ${id} of a table the component derives at load",tags:["a${id % 7}","b${id % 13}"],weight:${(id * 7919) % 1000}},`;
    rows.push(row);
    length += row.length;
  }
  return Buffer.from(`\n;(function unusedTable(){return [${rows.join('')}];});\n`);
}
