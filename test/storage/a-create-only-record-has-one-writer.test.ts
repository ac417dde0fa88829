import t from 'tap';
import { fileSystemStorage, s3Storage } from '../helpers/catalog-storages';

for (const make of [fileSystemStorage, s3Storage]) {
  t.test(`writers racing to create one record: exactly one creates it, on ${make.name}`, async (t) => {
    const shared = await make(t);
    const writers = Array.from({ length: 4 }, () => shared.open());
    const created = await Promise.all(writers.map((storage, index) => storage.createRecord('quota/a/publishes/2026-01-01T00-000000', Buffer.from(`writer ${index}`))));
    t.equal(created.filter(Boolean).length, 1, `one of ${created.length}`);
    const winner = created.indexOf(true);
    t.equal((await writers[0]!.readRecord('quota/a/publishes/2026-01-01T00-000000'))!.toString(), `writer ${winner}`, "the record is the winner's, whole");
    t.equal(await writers[1]!.createRecord('quota/a/publishes/2026-01-01T00-000000', Buffer.from('late')), false, 'a later writer is refused');
    t.same(await writers[2]!.listRecords('quota/a/publishes/'), ['quota/a/publishes/2026-01-01T00-000000']);
    await writers[3]!.deleteRecords(['quota/a/publishes/2026-01-01T00-000000']);
    t.equal(await writers[3]!.createRecord('quota/a/publishes/2026-01-01T00-000000', Buffer.from('again')), true, 'created again once deleted');
  });
}
