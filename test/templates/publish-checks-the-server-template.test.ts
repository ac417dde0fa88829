import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { packageComponent } from '../../src/packager/package-component';
import { hashToken } from '../../src/publish/tenant-tokens';
import { wrapTemplate } from '../../src/templates/template-wrapper';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const TOKEN = 'templates-team-token';

t.test('publishing a type that renders with template.server.js requires it, registered under the template key', async (t) => {
  const { url } = await startRegistry(t, [], (config) => {
    config.publishTokens = [{ tenant: 'templates', sha256: hashToken(TOKEN), components: ['templates-*'] }];
  });
  const { files } = await packageComponent(fixture('templates-react-counter'));
  const put = async (edited: Map<string, Buffer>) =>
    request(`${url}templates-react-counter/1.0.0`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/gzip' },
      body: await packTarball(edited),
    });
  const refusal = (problem: string) => ({
    status: 400,
    body: {
      code: 'PACKAGE_NOT_VALID',
      error: 'The package of templates-react-counter@1.0.0 is not valid.',
      name: 'templates-react-counter',
      requestVersion: '1.0.0',
      details: { problems: [problem] },
    },
  });

  const missing = new Map(files);
  missing.delete('template.server.js');
  const withoutIt = await put(missing);
  t.same({ status: withoutIt.status, body: withoutIt.body }, refusal('template.server.js is missing (template type oc-template-react renders on the server with it)'));

  const otherKey = new Map(files);
  otherKey.set('template.server.js', Buffer.from(wrapTemplate('var __view={default:function(){return "<p>forged</p>"}};', 'not-the-key')));
  const elsewhere = await put(otherKey);
  const key = JSON.parse(files.get('package.json')!.toString()).oc.files.template.hashKey;
  t.same({ status: elsewhere.status, body: elsewhere.body }, refusal(`template.server.js does not register a server view under /oc/files/template/hashKey "${key}"`));

  t.equal((await put(files)).status, 201, 'the package as tessera package wrote it is accepted');
});
