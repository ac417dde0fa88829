import t from 'tap';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { cliEnv, eventually, logLines, startCli, workFolder } from '../cli/run-cli';
import { fixture, request } from '../helpers/start-registry';
import { packagedFixture } from '../helpers/packaged-fixture';
import { BYSTANDER } from '../sandbox/bystander';

const NAME = 'hostile-log-writer';

interface LogLine {
  reqId?: string;
  msg: string;
  component?: string;
  requestVersion?: string;
  forged?: boolean;
}

/**
 * What a component writes into the registry's log, through the names of nested renders that fail,
 * is the component's own text: it must stay bounded (a name no component can have is not copied
 * whole into a line) and never read as a line of the registry's own. One GET of about a hundred
 * bytes must not write megabytes of log.
 */
t.test("the names a component asks for do not write megabytes or lines of their own into the registry's log", async (t) => {
  const storagePath = await workFolder(t);
  const storage = new FileSystemStorage(storagePath);
  for (const dir of [fixture(NAME), BYSTANDER]) {
    const packaged = await packagedFixture(dir);
    await storage.writeVersion(packaged.descriptor.name, packaged.descriptor.version, packaged.files);
  }
  // The log's bound is under test, not the time: its 100 refused nested renders passed the default
  // 5 s beside a second test suite (504).
  const registry = startCli(t, ['start', '--port', '0', '--storage', storagePath], {
    env: cliEnv({ TESSERA_HOST: '127.0.0.1', TESSERA_LIMITS_FRONT_THREADS: '1', TESSERA_LIMITS_SANDBOX_HOSTS: '1', TESSERA_LIMITS_EXECUTION_TIMEOUT_MS: '30000' }),
  });
  const [, url] = await registry.waitFor(/Tessera registry on (http:\/\/127\.0\.0\.1:\d+\/)/);
  const before = registry.output().length;
  const answer = await request(`${url}${NAME}`, { headers: { 'x-request-id': 'writer' } });
  t.equal(answer.status, 200);
  t.equal(answer.body.html, '<p>100 refused</p>', 'every nested render was refused');
  await eventually(async () => logLines<LogLine>(registry).filter((line) => line.reqId === 'writer').length >= 1);
  // The lines of one request are written at once; wait a moment for the last of them.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const written = registry.output().length - before;
  const lines = logLines<LogLine>(registry);
  t.notOk(lines.some((line) => line.forged === true), 'no line of the component’s own');
  const longest = Math.max(...lines.filter((line) => line.reqId === 'writer').map((line) => JSON.stringify(line).length));
  t.ok(longest <= 4096, `each line is bounded (the longest was ${longest} characters)`);
  t.ok(written <= 512 * 1024, `one request writes at most 512 KB of log (it wrote ${written} characters)`);
  const bystander = await request(`${url}hello-world/1.0.0?name=After`);
  t.equal(bystander.status, 200, 'another component renders after');
});
