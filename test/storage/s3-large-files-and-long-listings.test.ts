import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { createS3Client, S3Storage } from '../../src/storage/s3-storage';
import { BUCKET, startS3Server } from '../helpers/s3-server';

t.test('a file over the multipart size goes up in parts and reads back whole; listings page past 1000 keys', async (t) => {
  const server = await startS3Server(t);
  const client = createS3Client(5000, server.env);
  const storage = new S3Storage({ bucket: BUCKET, prefix: 'large/' }, { timeoutMs: 5000, multipartBytes: 5 * 1024 * 1024, settleMs: 100, client });
  t.teardown(() => storage.close());

  const big = randomBytes(11 * 1024 * 1024);
  const files = new Map([
    ['package.json', Buffer.from('{"name":"big-assets","version":"1.0.0"}')],
    ['public/video.bin', big],
  ]);
  await storage.writeVersion('big-assets', '1.0.0', files);
  const back = await storage.readFile('big-assets', '1.0.0', 'public/video.bin');
  t.ok(back?.equals(big), 'the 11 MiB file reads back byte for byte');

  const { Contents } = await server.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'large/packages/big-assets/1.0.0/' }));
  const videoKey = Contents!.map((object) => object.Key!).find((key) => key.endsWith('/public/video.bin'))!;
  const head = await server.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: videoKey }));
  t.match(head.ETag, /-3"$/, 'stored as a multipart object of 3 parts');
  t.equal(await storage.readFile('big-assets', '1.0.0', 'public/missing.bin'), undefined, 'a file the version does not have');
  t.equal(await storage.readFile('big-assets', '2.0.0', 'package.json'), undefined, 'a version that was never published');

  // 1001 commit markers: one more than a ListObjectsV2 page holds.
  const versions = Array.from({ length: 1001 }, (_, index) => `1.${Math.floor(index / 100)}.${index % 100}`);
  for (let start = 0; start < versions.length; start += 50) {
    await Promise.all(
      versions.slice(start, start + 50).map((version) => server.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `large/versions/many-versions/${version}.json`, Body: '{}' }))),
    );
  }
  t.same((await storage.listVersions('many-versions')).sort(), [...versions].sort(), 'every version is listed');
  t.same(await storage.listComponents(), ['big-assets', 'many-versions']);
});
