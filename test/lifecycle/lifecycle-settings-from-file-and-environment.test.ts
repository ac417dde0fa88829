import t from 'tap';
import { loadConfig } from '../../src/config/load-config';
import { hashToken } from '../../src/publish/tenant-tokens';

t.test('unpublishWindowHours and adminTokenSha256: defaults, TESSERA_* variables, and refused values', async (t) => {
  const defaults = loadConfig({ env: {} });
  t.equal(defaults.unpublishWindowHours, 72);
  t.equal(defaults.adminTokenSha256, undefined);

  const sha256 = hashToken('administrator');
  const fromEnv = loadConfig({ env: { TESSERA_UNPUBLISH_WINDOW_HOURS: '24', TESSERA_ADMIN_TOKEN_SHA256: sha256 } });
  t.equal(fromEnv.unpublishWindowHours, 24);
  t.equal(fromEnv.adminTokenSha256, sha256);

  t.throws(() => loadConfig({ env: { TESSERA_ADMIN_TOKEN_SHA256: 'not-a-hash' } }), { name: 'ConfigError' });
  t.throws(() => loadConfig({ env: { TESSERA_UNPUBLISH_WINDOW_HOURS: '-1' } }), { name: 'ConfigError' });
});
