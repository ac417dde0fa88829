import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ERRORS } from '../src/errors/errors';
import { REPO_ROOT } from './helpers/start-registry';

t.test('every error code is in the table of docs/reference/errors.md with its status, and no other', async (t) => {
  const page = readFileSync(path.join(REPO_ROOT, 'docs', 'reference', 'errors.md'), 'utf8');
  const documented = new Map([...page.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));
  t.same([...documented.keys()].sort(), Object.keys(ERRORS).sort());
  for (const [code, { status }] of Object.entries(ERRORS)) {
    t.ok(documented.get(code)!.includes(String(status)), `${code} is documented with status ${status}`);
  }
});
