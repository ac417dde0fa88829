import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/start-registry';
import { TENANCY_POLICY, type TenancyRule } from '../../src/sandbox/tenancy-policy';

/** A rule's row, as the table under "The rules in numbers" (docs/explanation/security-model.md) writes it. */
const row = (name: string, rule: TenancyRule): string => `| \`${name}\` | ${rule.shown} | ${rule.bounds} | ${rule.reason} |`;

t.test("every tenancy rule is a row of the security model's table, as the policy says it, and the table has no other", async (t) => {
  const readme = readFileSync(path.join(REPO_ROOT, 'docs', 'explanation', 'security-model.md'), 'utf8');
  const lines = readme.split('\n');
  for (const [name, rule] of Object.entries(TENANCY_POLICY)) t.ok(lines.includes(row(name, rule)), name);
  const start = lines.indexOf('| rule | default | what it bounds | why, and the attack it answers |');
  t.not(start, -1, 'the table is there');
  const rows = lines.slice(start + 2);
  const end = rows.findIndex((line) => !line.startsWith('|'));
  const named = rows.slice(0, end === -1 ? undefined : end).map((line) => /^\| `([^`]+)` \|/.exec(line)?.[1]);
  t.same(named, Object.keys(TENANCY_POLICY), 'one row per rule, in the order of the policy');
});

t.test('a shown value says the value', async (t) => {
  for (const [name, rule] of Object.entries(TENANCY_POLICY)) {
    const fraction = { '½': 1 / 2, '¼': 1 / 4 }[rule.shown.slice(0, 1)];
    const number = Number(/^[\d,]+/.exec(rule.shown)?.[0]?.replaceAll(',', ''));
    const shown = fraction ?? (rule.shown.endsWith(' s') ? number * 1000 : number);
    t.equal(shown, rule.value, name);
  }
});
