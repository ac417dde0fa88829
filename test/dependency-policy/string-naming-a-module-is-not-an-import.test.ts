import t from 'tap';
import { packageComponent } from '../../src/packager/package-component';
import { packTarball } from '../../src/packager/pack-tarball';
import { fixture, request } from '../helpers/start-registry';
import { put, startPublishRegistry } from '../publish/publish-helpers';

t.test('a server script that names require("fs") in strings is packaged, published and rendered', async (t) => {
  const packaged = await packageComponent(fixture('publish-greeter-probe'));
  const server = packaged.files.get('server.js')!.toString('utf8');
  t.match(server, `require('fs')`, 'the bundle still holds the text a text search would match');

  const { url } = await startPublishRegistry(t);
  const published = await put(url, 'publish-greeter-probe/1.0.0', await packTarball(packaged.files));
  t.equal(published.status, 201, 'the registry agrees with the packager');
  t.same(published.body, { ok: true, name: 'publish-greeter-probe', version: '1.0.0' });

  const rendered = await request(`${url}publish-greeter-probe`);
  t.equal(rendered.status, 200);
  t.equal(rendered.body.html, `<ul><li>require('fs')</li><li>require("child_process")</li><li>import('node:net')</li></ul>`);
});
