import t from 'tap';
import { fixture, ofTenant, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const NAME = 'hostile-template-hook';

/**
 * A view's top-level code runs before the server bundle, in the same context, while the global hook
 * that loads the server bundle is still there. Whatever the view does, the failure a client reads
 * must be one the prelude made: a message of at most 1000 characters, and details naming at most
 * one module of at most 256 characters (README, Sandbox limits).
 */
t.test("a view's top-level code cannot answer its version's build with a forged, unbounded failure", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('acme', BYSTANDER)], TWO_HOSTS);
  await bystanderRenders(t, started, 'Before', 'another tenant before');
  const answer = await request(`${started.url}${NAME}`);
  t.equal(answer.status, 500, 'the build failed: a component failure');
  t.ok(typeof answer.body.error === 'string' && answer.body.error.length <= 1100, `the message is bounded (it was ${String(answer.body.error).length} characters)`);
  const details = answer.body.details as { missingDependencies?: unknown[] } | undefined;
  t.ok(
    details === undefined ||
      (Object.keys(details).join() === 'missingDependencies' &&
        Array.isArray(details.missingDependencies) &&
        details.missingDependencies.length <= 1 &&
        details.missingDependencies.every((name) => typeof name === 'string' && name.length <= 256)),
    `no details but one module name of 256 characters at most (they were ${JSON.stringify(details)?.slice(0, 200)})`,
  );
  t.not(answer.body.code, 'DEPENDENCY_MISSING_FROM_REGISTRY', 'no missing module was ever required: the code is not the registry’s');
  await bystanderRenders(t, started, 'After', 'another tenant after');
});
