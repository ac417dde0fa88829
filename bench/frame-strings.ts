/**
 * What a frame between the front and a sandbox host costs to write and to read
 * (src/sandbox/framed-socket.ts), against the same batch written as one JSON, the baseline, in
 * alternating rounds of one process: a turn's 16 executions of one component out (their inputs
 * built by the pipeline, with wrk's headers and with a browser's), and their 16 answers back (the
 * OC greeting's). Prints the median nanoseconds per message of each, and the ratio.
 *
 *   node dist/bench/frame-strings.js [rounds]
 */
import { executionInput } from '../src/pipeline/execution-input';
import type { RequestHeaders } from '../src/pipeline/call-values';
import { batchOfFrame, frameOf } from '../src/sandbox/framed-socket';
import type { ExecuteMessage, ResultMessage } from '../src/sandbox/protocol';
import { median } from './load';
import { BROWSER_HEADERS, WRK_HEADERS } from './sample-headers';

/** Executions of one component in one frame (src/sandbox/sandbox-host.ts, FRAME_SIZE). */
const MESSAGES = 16;
const FRAMES = 20_000;
const BASE = 'http://127.0.0.1:8080/';

const executions = (headers: RequestHeaders): ExecuteMessage[] =>
  Array.from({ length: MESSAGES }, (_, index) => ({
    t: 'execute',
    id: 1000 + index,
    key: 'oc-greeting@2.0.0#0123456789abcdef',
    component: 'oc-greeting',
    input: executionInput({
      cookieScope: 'oc-greeting',
      mode: 'rendered',
      params: { name: 'Ada' },
      given: { name: 'Ada' },
      headers,
      baseUrl: BASE,
      staticPath: `${BASE}oc-greeting/2.0.0/static/`,
      tenantCookies: { bytes: 0, names: 0 },
    }),
    timeoutMs: 5000,
  }));

const ANSWER = JSON.stringify({ ok: true, html: '<div class="greeting" data-name="Ada"><h1 class="title">Hello, Ada!</h1><p>It is a "fine" day.</p></div>', headers: {}, cookies: [] });
const answers: ResultMessage[] = Array.from({ length: MESSAGES }, (_, index) => ({ t: 'result', id: 1000 + index, answer: ANSWER }));

/** The baseline: the batch as one JSON behind a 5-byte head, read back with one parse. */
const baseline = {
  write(batch: unknown[]): Buffer {
    const json = JSON.stringify(batch);
    const frame = Buffer.allocUnsafe(5 + Buffer.byteLength(json, 'utf8'));
    frame.writeUInt32BE(frame.length - 5, 0);
    frame[4] = 0;
    frame.write(json, 5, 'utf8');
    return frame;
  },
  read: (frame: Buffer): unknown[] => JSON.parse(frame.toString('utf8', 5)) as unknown[],
};
const framed = { write: (batch: unknown[]): Buffer => frameOf(batch)[0]!, read: (frame: Buffer): unknown[] => batchOfFrame(frame)! };

/** Nanoseconds per message to write the batch FRAMES times, and to read its frame FRAMES times. */
function timed(codec: typeof baseline, batch: unknown[]): { write: number; read: number } {
  let bytes = 0;
  let began = process.hrtime.bigint();
  for (let index = 0; index < FRAMES; index++) bytes += codec.write(batch).length;
  const write = Number(process.hrtime.bigint() - began) / FRAMES / MESSAGES;
  const frame = codec.write(batch);
  began = process.hrtime.bigint();
  for (let index = 0; index < FRAMES; index++) bytes += codec.read(frame).length;
  const read = Number(process.hrtime.bigint() - began) / FRAMES / MESSAGES;
  if (bytes === 0) throw new Error('Nothing was written.');
  return { write, read };
}

function main(): void {
  const rounds = Number(process.argv[2] ?? '8');
  const cases: Array<[string, unknown[]]> = [
    ['16 executions, wrk headers', executions(WRK_HEADERS)],
    ['16 executions, browser headers', executions(BROWSER_HEADERS)],
    ['16 answers', answers],
  ];
  for (const [label, batch] of cases) {
    if (JSON.stringify(framed.read(framed.write(batch))) !== JSON.stringify(batch)) throw new Error(`${label}: the frame does not read back as it was written.`);
    const runs = { baseline: [] as Array<{ write: number; read: number }>, frame: [] as Array<{ write: number; read: number }> };
    for (let round = 0; round < rounds; round++) {
      runs.baseline.push(timed(baseline, batch));
      runs.frame.push(timed(framed, batch));
    }
    const of = (side: keyof typeof runs, part: 'write' | 'read') => median(runs[side].map((run) => run[part]));
    const line = (part: 'write' | 'read') => `${part} ${of('frame', part).toFixed(0)} ns against ${of('baseline', part).toFixed(0)} (${(of('frame', part) / of('baseline', part)).toFixed(2)})`;
    console.log(`${label}, per message: ${line('write')}; ${line('read')}`);
  }
}

main();
