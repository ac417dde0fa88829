import t from 'tap';
import { request } from '../helpers/start-registry';
import { filesUnder } from '../helpers/files-under';
import { GREETING, SHOP_TOKEN, packed, put, startPublishRegistry } from './publish-helpers';
import { denseStatements, packedWithServer } from './server-script-packages';

/**
 * What no cheap scan can see, checking the package meets: its publish thread's heap (144 MB with
 * the default 5 MB `serverScriptBytes`) and its deadline (`publishCheckSeconds`). Past either, the
 * thread is ended, the package refused with a coded answer, nothing stored, and the next publish is
 * served by a new thread. Which limit a package meets first depends on the machine's speed, so each
 * test makes the other limit out of reach: the heap's test has a deadline of 10 minutes, the
 * deadline's test 0.05 s against a parse of 4.8 MB (about 1 s on a quiet machine, more on a busy one).
 */

/** Within the file's time limit (150 s), with room for the deadline's test after it. */
const HEAP_TEST_LIMIT_MS = 120_000;

const refusal = (error: string, details: object) => ({ code: 'PACKAGE_TOO_COMPLEX', error, name: 'shop-greeting', requestVersion: '1.0.0', details });

t.test('a script whose parse needs more than the thread\'s heap ends that thread; the next publish gets a new one', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t, (config) => {
    config.limits.publishCheckSeconds = 600;
    // At nice 10, beside two test suites, its thread took past a minute to reach its heap's limit:
    // the heap is under test here, not the priority.
    config.limits.publishThreadNiceness = 0;
  });
  // 4.8 MB on 48 lines, no nesting: within every bound read before parsing; its tree needs about 330 MB.
  const heavy = await packedWithServer('shop-greeting', '1.0.0', denseStatements(4_800_000));
  const refused = await put(url, 'shop-greeting/1.0.0', heavy, { token: SHOP_TOKEN, limitMs: HEAP_TEST_LIMIT_MS });
  t.equal(refused.status, 422);
  t.same(refused.body, refusal("Checking the package took more than the publish thread's 144 MB of memory; nothing was stored.", { bound: 'publishThreadHeapMb', limit: 144 }));
  t.notOk((await filesUnder(storagePath)).some((file) => file.includes('shop-greeting')), 'nothing was stored');

  const next = await put(url, 'publish-greeting/1.0.0', await packed(GREETING));
  t.same([next.status, next.body], [201, { ok: true, name: 'publish-greeting', version: '1.0.0' }], 'the next publish is served');
  t.equal((await request(`${url}publish-greeting/1.0.0?name=Ada`)).status, 200);
});

t.test('a package whose checks pass the deadline ends its thread, refused', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t, (config) => {
    config.limits.publishCheckSeconds = 0.05;
  });
  // Parentheses the parser descends through without keeping a node for them: time, not memory (about 14 MB of tree).
  const statement = `x=${'('.repeat(200)}0${')'.repeat(200)};\n`;
  const slow = await packedWithServer('shop-greeting', '1.0.0', Buffer.from(statement.repeat(Math.floor(4_800_000 / statement.length))));
  const refused = await put(url, 'shop-greeting/1.0.0', slow, { token: SHOP_TOKEN });
  t.equal(refused.status, 422);
  t.same(refused.body, refusal('Unpacking and checking the package took more than 0.05 s (limits.publishCheckSeconds); nothing was stored.', { bound: 'publishCheckSeconds', limit: 0.05 }));
  t.notOk((await filesUnder(storagePath)).some((file) => file.includes('shop-greeting')), 'nothing was stored');
});
