import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import t from 'tap';
import { GREETING, packed, publishTokens, put } from '../publish/publish-helpers';
import { startS3Registry } from '../helpers/start-s3-registry';
import { BUCKET, startS3Server } from '../helpers/s3-server';
import { request } from '../helpers/start-registry';

t.test('a stored object damaged after publishing answers STORAGE_CORRUPT on the request that reads it, never the damaged bytes', async (t) => {
  const server = await startS3Server(t);
  const publisher = await startS3Registry(t, { prefix: 'corrupt', endpoint: server.endpoint, configure: (config) => (config.publishTokens = publishTokens()) });
  t.equal((await put(publisher.url, 'publish-greeting/1.0.0', await packed(GREETING))).status, 201);

  // A replica that loaded the version whole, before the damage, reads its code for the first time after it.
  const reader = await startS3Registry(t, { prefix: 'corrupt', endpoint: server.endpoint });
  const { Contents } = await server.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'corrupt/packages/publish-greeting/1.0.0/' }));
  const keyOf = (file: string) => Contents!.map((object) => object.Key!).find((key) => key.endsWith(`/${file}`))!;
  await server.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: keyOf('template.js'), Body: 'oc.components = (function () { throw 1; ' }));
  await server.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: keyOf('public/greeting.css'), Body: 'p { color: red }' }));

  const rendered = await request(`${reader.url}publish-greeting/1.0.0?name=Ada`);
  t.equal(rendered.status, 500);
  t.same(rendered.body, {
    code: 'STORAGE_CORRUPT',
    error: 'The stored file "template.js" of publish-greeting@1.0.0 is damaged: its content is not what was published.',
    name: 'publish-greeting',
    requestVersion: '1.0.0',
  });
  const css = await request(`${reader.url}publish-greeting/1.0.0/static/public/greeting.css`);
  t.equal(css.status, 500);
  t.same(css.body, {
    code: 'STORAGE_CORRUPT',
    error: 'The stored file "public/greeting.css" of publish-greeting@1.0.0 is damaged: its content is not what was published.',
    name: 'publish-greeting',
    requestVersion: '1.0.0',
  });

  // A replica started after the damage indexes the version from its descriptor (whole, and every file
  // there), without reading its code: the damage is found by the request that reads it, as above.
  const late = await startS3Registry(t, { prefix: 'corrupt', endpoint: server.endpoint });
  const lateRender = await request(`${late.url}publish-greeting/1.0.0?name=Ada`);
  t.equal(lateRender.status, 500);
  t.same(lateRender.body, rendered.body, 'every replica answers the damaged file alike');
  t.match((await request(`${late.url}metrics`)).text, /^tessera_catalog_unreadable_versions 0$/m);

  // A damaged descriptor: `~info`, which reads it whole, answers the coded error too.
  await server.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: keyOf('package.json'), Body: '{"name": "publish-greeting"}' }));
  const info = await request(`${late.url}publish-greeting/1.0.0/~info`);
  t.equal(info.status, 500);
  t.same(info.body, {
    code: 'STORAGE_CORRUPT',
    error: 'The stored file "package.json" of publish-greeting@1.0.0 is damaged: its content is not what was published.',
    name: 'publish-greeting',
    requestVersion: '1.0.0',
  });
});
