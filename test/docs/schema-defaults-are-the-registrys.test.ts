import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import configSchema from '../../src/config/config-schema.json';

interface LimitSchema {
  description?: string;
}

// A limit's description in the schema is what editors show operators: a plain "Default <n>." must
// be the default the registry runs with.
t.test("the schema's stated default of each numeric limit is the registry's default", async (t) => {
  const limits = configSchema.properties.limits.properties as Record<string, LimitSchema>;
  const defaults = defaultConfig().limits as unknown as Record<string, unknown>;
  let stated = 0;
  for (const [name, schema] of Object.entries(limits)) {
    const match = /Default (\d+)\.$/.exec(schema.description ?? '');
    if (!match) continue;
    stated++;
    t.equal(defaults[name], Number(match[1]), `limits.${name}`);
  }
  t.ok(stated > 20, `most limits state a plain default (${stated})`);
});
