import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readDoc, REPO_ROOT, sourceFiles } from './docs-helpers';

t.test('every metric the registry registers is in docs/reference/metrics.md, and no other', async (t) => {
  const registered = new Set<string>();
  for (const file of [...sourceFiles('src'), ...sourceFiles('workers')]) {
    const code = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const match of code.matchAll(/['"`](tessera_[a-z0-9_]+)['"`]/g)) registered.add(match[1]!);
  }
  t.ok(registered.has('tessera_http_requests_total') && registered.size > 20, `the metrics are found in the sources (${registered.size})`);

  const page = readDoc('docs/reference/metrics.md');
  const documented = new Set([...page.matchAll(/^\| `(tessera_[a-z0-9_]+)` \|/gm)].map((m) => m[1]!));
  t.same([...documented].sort(), [...registered].sort(), 'the table lists exactly the registered metrics');
});
