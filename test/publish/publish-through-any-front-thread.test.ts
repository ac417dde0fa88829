import http from 'node:http';
import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { request } from '../helpers/start-registry';
import { GREETERS_TOKEN, GREETING, packagedFiles, startPublishRegistry, withDescriptor } from './publish-helpers';

/** Enough uploads that both front threads receive some (the kernel hands each new connection to one of them). */
const UPLOADS = 16;

/** A PUT on a connection of its own. */
function freshPut(url: string, body: Buffer): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${GREETERS_TOKEN}`, 'content-type': 'application/gzip', 'content-length': String(body.length) };
    const put = http.request(url, { method: 'PUT', agent: false, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    put.on('error', reject);
    put.end(body);
  });
}

const putsCounted = (metrics: string, status: number): number =>
  Number(new RegExp(`^tessera_http_requests_total\\{method="PUT",route="/:name/:version",status="${status}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);

t.test("uploads through every front thread go to the process's one publish pool, refusals with their codes", async (t) => {
  const { url, registry } = await startPublishRegistry(t, (config) => {
    config.limits.frontThreads = 2;
  });
  const versions = Array.from({ length: UPLOADS }, (_, index) => `1.0.${index}`);

  const published = await Promise.all(versions.map(async (version) => freshPut(`${url}publish-greeting/${version}`, await packTarball(await packagedFiles(GREETING, version)))));
  t.same(
    published,
    versions.map((version) => ({ status: 201, body: { ok: true, name: 'publish-greeting', version } })),
  );
  const infos = await Promise.all(versions.map((version) => request(`${url}publish-greeting/${version}/~info`)));
  t.same(
    infos.map((info) => [info.status, info.body.oc.publisher.tenant]),
    versions.map(() => [200, 'greeters']),
  );

  const broken = await packTarball(await withDescriptor((descriptor) => (descriptor.oc.files.template.hashKey = 'abc123'), await packagedFiles(GREETING, '2.0.0')));
  const refused = await Promise.all(Array.from({ length: UPLOADS }, () => freshPut(`${url}publish-greeting/2.0.0`, broken)));
  t.same(
    refused,
    Array.from({ length: UPLOADS }, () => ({
      status: 400,
      body: {
        code: 'PACKAGE_NOT_VALID',
        error: 'The package of publish-greeting@2.0.0 is not valid.',
        name: 'publish-greeting',
        requestVersion: '2.0.0',
        details: { problems: ['template.js does not register a compiled view under /oc/files/template/hashKey "abc123"'] },
      },
    })),
    'a refusal keeps its code and problems, whichever thread received the upload',
  );

  const summed = (await request(`${url}metrics`)).text;
  const mainThreadOnly = await registry.metrics.registry.metrics();
  t.equal(putsCounted(summed, 201), UPLOADS, 'every publish was answered');
  t.equal(putsCounted(summed, 400), UPLOADS, 'every refusal was answered');
  const mainThread = putsCounted(mainThreadOnly, 201) + putsCounted(mainThreadOnly, 400);
  t.ok(mainThread < 2 * UPLOADS, `the main thread received ${mainThread} of ${2 * UPLOADS} uploads, the other front thread the rest`);
  t.match(summed, /^tessera_publishes_in_progress 0$/m);
});
