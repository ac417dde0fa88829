import t, { type Test } from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { GREETING, packagedFiles, publishTokens, put, withDescriptor } from '../publish/publish-helpers';
import { startS3FaultProxy } from '../helpers/s3-fault-proxy';
import { startS3Registry } from '../helpers/start-s3-registry';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { request } from '../helpers/start-registry';

/** Two replicas on one bucket publish the same versions at the same moment: one 201, one 409 each time. */
async function raceTwoReplicas(t: Test, endpoint: string, prefix: string, expectedMode: string): Promise<void> {
  const replicas = await Promise.all(
    [0, 1].map(() => startS3Registry(t, { prefix, endpoint, storage: { settleMs: 1500 }, configure: (config) => (config.publishTokens = publishTokens()) })),
  );
  t.equal(await replicas[0]!.storage!.commitMode, expectedMode, `the store is driven by ${expectedMode}`);
  for (const version of ['1.0.0', '1.0.1']) {
    // Different content for one version: whichever wins, readers must see one whole package.
    const [left, right] = await Promise.all(
      ['left', 'right'].map(async (side) => packTarball(await withDescriptor((descriptor) => (descriptor.description = side), await packagedFiles(GREETING, version)))),
    );
    const answers = await Promise.all([put(replicas[0]!.url, `publish-greeting/${version}`, left), put(replicas[1]!.url, `publish-greeting/${version}`, right)]);
    t.same(answers.map((answer) => answer.status).sort(), [201, 409], `${version}: exactly one publish wins`);
    t.same(answers.find((answer) => answer.status === 409)!.body, {
      code: 'ALREADY_EXISTS',
      error: `publish-greeting@${version} is already published; versions are immutable.`,
      name: 'publish-greeting',
      requestVersion: version,
    });
    const winner = replicas[answers.findIndex((answer) => answer.status === 201)]!;
    const loser = replicas[answers.findIndex((answer) => answer.status === 409)]!;
    const rendered = await request(`${winner.url}publish-greeting/${version}?name=Ada`);
    t.equal(rendered.status, 200);
    await loser.registry.catalog.refresh();
    const fromLoser = await request(`${loser.url}publish-greeting/${version}?name=Ada`);
    t.equal(fromLoser.status, 200, 'the losing replica serves the winning version');
    t.equal(fromLoser.body.version, version);
    const [winnerInfo, loserInfo] = await Promise.all([request(`${winner.url}publish-greeting/${version}/~info`), request(`${loser.url}publish-greeting/${version}/~info`)]);
    t.same(loserInfo.body, winnerInfo.body, 'both replicas hold the one winning package');
  }
}

let server: S3Server;
t.before(async () => {
  server = await startS3Server(t);
});

t.test('a store that ignores If-None-Match (fauxqs): claims decide, one 201 and one 409', async (t) => {
  await raceTwoReplicas(t, server.endpoint, 'claims', 'claims');
});

t.test('a store that honours If-None-Match (as AWS S3): the conditional write decides, one 201 and one 409', async (t) => {
  const proxy = await startS3FaultProxy(t, server.endpoint, { enforceIfNoneMatch: true });
  await raceTwoReplicas(t, proxy.endpoint, 'conditional', 'conditional-write');
});
