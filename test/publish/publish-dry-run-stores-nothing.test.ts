import t from 'tap';
import { request } from '../helpers/start-registry';
import { filesUnder } from '../helpers/files-under';
import { GREETING, packed, put, startPublishRegistry } from './publish-helpers';

t.test('?dryRun=true validates the package and stores nothing', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const tarball = await packed(GREETING);

  const dryRun = await put(url, 'publish-greeting/1.0.0', tarball, { query: '?dryRun=true' });
  t.equal(dryRun.status, 200);
  t.same(dryRun.body, { ok: true, name: 'publish-greeting', version: '1.0.0', dryRun: true });
  // Only the tenant's count of dry runs this hour (limits.dryRunsPerHour).
  t.same(
    (await filesUnder(storagePath)).map((file) => file.replace(/\d{4}-\d\d-\d\dT\d\d/, '<hour>')),
    ['catalog/quota/greeters/dry-runs/<hour>-000000'],
    'storage holds nothing of the package',
  );
  t.equal((await request(`${url}publish-greeting`)).status, 404, 'nothing is served');

  const invalid = await put(url, 'publish-greeting/2.0.0', tarball, { query: '?dryRun=true' });
  t.equal(invalid.status, 400, 'a dry run refuses what a publish would');
  t.same(invalid.body.details, { problems: ['/version "1.0.0" is not the URL version "2.0.0"'] });

  const published = await put(url, 'publish-greeting/1.0.0', tarball);
  t.equal(published.status, 201, 'the version is still free to publish');
});
