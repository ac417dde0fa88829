import t from 'tap';
import { cliEnv, eventually, logLines, startCli, workFolder } from '../cli/run-cli';
import { request } from '../helpers/start-registry';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';

interface LogLine {
  level: number;
  reqId?: string;
  msg: string;
  component?: string;
  depth?: number;
  req?: { url: string };
}

t.test('every log line of a request, nested renders included, carries its request id, taken from X-Request-Id or made up', async (t) => {
  const dir = await workFolder(t);
  const registry = startCli(t, ['start', '--with-demo', '--port', '0', '--storage', dir], { env: cliEnv({ TESSERA_HOST: '127.0.0.1', TESSERA_LOG_REQUESTS: 'true' }) });
  const [, url] = await registry.waitFor(/Tessera registry on (http:\/\/127\.0\.0\.1:\d+\/)/);
  const lines = () => logLines<LogLine>(registry);

  const panel = await request(`${url}welcome-panel?name=Ada&city=Porto`, { headers: { 'x-request-id': 'checkout-7f3a' } });
  t.equal(panel.status, 200);
  t.equal(panel.headers.get('x-request-id'), 'checkout-7f3a', 'the answer names the request id');
  await eventually(async () => lines().some((line) => line.reqId === 'checkout-7f3a' && line.msg === 'request completed'));

  const ofRequest = lines().filter((line) => line.reqId === 'checkout-7f3a');
  t.same(
    // The two nested renders run at the same time: their order is free.
    ofRequest.map((line) => `${line.msg} ${line.component ?? line.req?.url ?? ''} ${line.depth ?? ''}`.trim()).sort(),
    ['incoming request /welcome-panel?name=Ada&city=Porto', 'nested render hello-world 1', 'nested render weather-badge 1', 'request completed'],
    'the request and both of its nested renders, under one id',
  );

  // Asked for once, the two children now run beside their parent on its host: logged the same.
  const again = await request(`${url}welcome-panel?name=Bo&city=Faro`, { headers: { 'x-request-id': 'checkout-8e4b' } });
  t.equal(again.status, 200);
  await eventually(async () => lines().some((line) => line.reqId === 'checkout-8e4b' && line.msg === 'request completed'));
  t.same(
    lines()
      .filter((line) => line.reqId === 'checkout-8e4b')
      .map((line) => `${line.msg} ${line.component ?? line.req?.url ?? ''} ${line.depth ?? ''}`.trim())
      .sort(),
    ['incoming request /welcome-panel?name=Bo&city=Faro', 'nested render hello-world 1', 'nested render weather-badge 1', 'request completed'],
    'nested renders its host ran beside the parent are logged under the request id too',
  );
  t.equal(valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_nested_renders_total', { via: 'host' }), 2, 'both ran beside their parent');

  const unnamed = await request(`${url}hello-world`, { headers: { 'x-request-id': 'an id with spaces' } });
  const made = unnamed.headers.get('x-request-id');
  t.match(made, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'an id not fit for a log line is replaced by a UUID');
});
