import t from 'tap';
import { GREETERS_TOKEN, GREETING, packed, publishTokens, put } from '../publish/publish-helpers';
import { startS3Registry } from '../helpers/start-s3-registry';
import { startS3Server, useS3Server } from '../helpers/s3-server';
import { request } from '../helpers/start-registry';

/** Forty polls: a replica that does not poll never serves the version, one that does serves it after the first. */
const POLLS_WAITED_MS = 20_000;

t.test('two registries on one S3 bucket: a version published through one is rendered by the other at its next poll', async (t) => {
  useS3Server(t, await startS3Server(t));
  const configure = (config: Parameters<NonNullable<Parameters<typeof startS3Registry>[1]['configure']>>[0]) => {
    config.publishTokens = publishTokens();
    config.pollIntervalSeconds = 0.5;
  };
  const first = await startS3Registry(t, { prefix: 'replicas', configure });
  const second = await startS3Registry(t, { prefix: 'replicas', configure });

  const published = await put(first.url, 'publish-greeting/1.0.0', await packed(GREETING), { token: GREETERS_TOKEN });
  t.equal(published.status, 201);
  t.same(published.body, { ok: true, name: 'publish-greeting', version: '1.0.0' });

  // The other replica learns of it at one of its polls (every 0.5 s here). How soon is the machine's
  // to say: on CPUs shared with other work a poll and its storage reads once took past 1.5 s.
  const started = Date.now();
  let rendered = await request(`${second.url}publish-greeting?name=Ada`);
  while (rendered.status === 404 && Date.now() - started < POLLS_WAITED_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    rendered = await request(`${second.url}publish-greeting?name=Ada`);
  }
  t.equal(rendered.status, 200, 'the other replica serves it, found at a poll');
  t.equal(rendered.body.version, '1.0.0');
  t.match(rendered.body.html, /Hello, Ada/);
  t.equal(rendered.body.baseUrl, second.url);

  const fromFirst = await request(`${first.url}publish-greeting/1.0.0/static/public/greeting.css`);
  const fromSecond = await request(`${second.url}publish-greeting/1.0.0/static/public/greeting.css`);
  t.equal(fromSecond.status, 200, 'static files are served by any replica');
  t.equal(fromSecond.text, fromFirst.text);
  t.equal(fromSecond.headers.get('content-type'), 'text/css; charset=utf-8');
  const template = await request(`${second.url}publish-greeting/1.0.0/static/template.js`);
  t.equal(template.status, 200);
  t.match(template.text, /^var oc=oc\|\|\{\};/);

  const again = await put(second.url, 'publish-greeting/1.0.0', await packed(GREETING), { token: GREETERS_TOKEN });
  t.equal(again.status, 409, 'the other replica knows the version exists');
  t.equal(again.body.code, 'ALREADY_EXISTS');
});
