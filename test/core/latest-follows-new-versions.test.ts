import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { packagedFixture } from '../helpers/packaged-fixture';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { fixture } from '../helpers/start-registry';

// The catalog remembers resolved expressions; a new version must still be seen at once.
t.test('a remembered resolution is dropped when a version is added', async (t) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tessera-catalog-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const storage = new FileSystemStorage(root);
  const catalog = new Catalog(storage);
  for (const version of ['1.0.0', '1.2.3']) {
    const packaged = await packagedFixture(fixture(`core-versions-${version}`));
    await storage.writeVersion(packaged.descriptor.name, version, packaged.files);
  }
  await catalog.refresh();
  t.equal(catalog.resolve('core-versions', '').version, '1.2.3');
  t.equal(catalog.resolve('core-versions', '1.x').version, '1.2.3');
  t.throws(() => catalog.resolve('core-versions', '2'), { code: 'NOT_FOUND' });

  for (const version of ['1.3.0', '2.0.0']) {
    const packaged = await packagedFixture(fixture(`core-versions-${version}`));
    await storage.writeVersion(packaged.descriptor.name, version, packaged.files);
    await catalog.add(packaged.descriptor.name, version);
  }
  t.equal(catalog.resolve('core-versions', '').version, '2.0.0');
  t.equal(catalog.resolve('core-versions', '1.x').version, '1.3.0');
  t.equal(catalog.resolve('core-versions', '2').version, '2.0.0');
});
