import t from 'tap';
import configSchema from '../../src/config/config-schema.json';
import { readDoc } from './docs-helpers';

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

/** Every key of the schema, nested ones as `parent.child`; a list's items as `list[].child`. */
function keysOf(node: SchemaNode, prefix = ''): string[] {
  const keys: string[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    keys.push(`${prefix}${name}`, ...keysOf(child, `${prefix}${name}.`));
    if (child.items) keys.push(...keysOf(child.items, `${prefix}${name}[].`));
  }
  return keys;
}

t.test('every key of the configuration schema is in docs/reference/configuration.md, once', async (t) => {
  const page = readDoc('docs/reference/configuration.md');
  const keys = keysOf(configSchema as SchemaNode);
  t.ok(keys.length > 40, `the schema's keys are found (${keys.length})`);
  t.ok(keys.includes('limits.executionTimeoutMs') && keys.includes('publishTokens[].sha256'), 'nested keys are walked');
  for (const key of keys) {
    const rows = page.split('\n').filter((line) => line.startsWith(`| \`${key}\` |`));
    t.equal(rows.length, 1, `${key} has one row of its own`);
  }
});
