import t from 'tap';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { cliEnv, eventually, logLines, startCli, workFolder } from '../cli/run-cli';
import { fixture, request } from '../helpers/start-registry';
import { packagedFixture } from '../helpers/packaged-fixture';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';

interface LogLine {
  reqId?: string;
  msg: string;
  component?: string;
  requestVersion?: string;
  depth?: number;
  code?: string;
}

// A failing nested render is logged with its code under its request's id (the access log off):
// through the front the first time, and the same once its parent's host runs it under a lease.
t.test('a nested render that fails is logged the same whether the front or its parent\'s host ran it', async (t) => {
  const storagePath = await workFolder(t);
  const storage = new FileSystemStorage(storagePath);
  for (const name of ['leased-child', 'leased-parent']) {
    const packaged = await packagedFixture(fixture(name));
    await storage.writeVersion(packaged.descriptor.name, packaged.descriptor.version, packaged.files);
  }
  const registry = startCli(t, ['start', '--port', '0', '--storage', storagePath], {
    env: cliEnv({ TESSERA_HOST: '127.0.0.1', TESSERA_LIMITS_FRONT_THREADS: '1', TESSERA_LIMITS_SANDBOX_HOSTS: '1' }),
  });
  const [, url] = await registry.waitFor(/Tessera registry on (http:\/\/127\.0\.0\.1:\d+\/)/);
  const lines = () => logLines<LogLine>(registry);
  const failedUnder = async (id: string): Promise<LogLine[]> => {
    const answer = await request(`${url}leased-parent?case=failing`, { headers: { 'x-request-id': id } });
    t.equal(answer.status, 200, 'the parent answers with its child\'s error');
    t.equal(answer.body.html, '<section>Error(Component "leased-child" failed: Unlucky)</section>');
    await eventually(async () => lines().some((line) => line.reqId === id && line.msg === 'nested render failed'));
    return lines().filter((line) => line.reqId === id && line.msg === 'nested render failed');
  };

  const viaFront = await failedUnder('through-the-front');
  // A call is leased once it rendered through the front (a failed one is not learnt).
  t.equal((await request(`${url}leased-parent?case=plain`)).status, 200);
  const viaHost = await failedUnder('beside-the-parent');
  t.equal(valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_nested_renders_total', { via: 'host' }), 1, 'the second ran on the parent\'s host');
  const expected = (reqId: string) => [{ reqId, component: 'leased-child', requestVersion: '', depth: 1, code: 'GENERIC_ERROR' }];
  const fields = ({ reqId, component, requestVersion, depth, code }: LogLine) => ({ reqId, component, requestVersion, depth, code });
  t.same(viaFront.map(fields), expected('through-the-front'));
  t.same(viaHost.map(fields), expected('beside-the-parent'));
});
