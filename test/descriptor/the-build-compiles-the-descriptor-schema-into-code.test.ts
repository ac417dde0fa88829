import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import t from 'tap';
import { descriptorSchema } from '../../src/descriptor/descriptor-schema';
import { GENERATED_VALIDATOR, descriptorValidator } from '../../src/descriptor/descriptor-validator';
import { DEMO, FIXTURES } from '../helpers/start-registry';

t.test('npm run build compiles the descriptor schema into code, which validates as the schema compiled at a start does', async (t) => {
  const built = descriptorValidator();
  t.equal(built, require(GENERATED_VALIDATOR), "the build's code is the validator in use");

  const compiled = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(descriptorSchema);
  const descriptors = [FIXTURES, DEMO].flatMap((folder) =>
    readdirSync(folder).flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(path.join(folder, name, 'package.json'), 'utf8')) as Record<string, unknown>];
      } catch {
        return []; // a fixture without a descriptor, or a broken one
      }
    }),
  );
  const [first] = descriptors as Array<Record<string, any>>;
  const broken = [{}, null, 'text', { ...first, name: 'Not A Name' }, { ...first, version: '1.x' }, { ...first, oc: { ...first!.oc, parameters: { a: { type: 'date' } } } }, { ...first, oc: null }];
  for (const descriptor of [...descriptors, ...broken]) {
    const valid = built(descriptor);
    t.same([valid, built.errors], [compiled(descriptor), compiled.errors], JSON.stringify(descriptor)?.slice(0, 60) ?? String(descriptor));
  }
  t.ok(descriptors.length > 50, `every fixture's and demo's descriptor (${descriptors.length})`);
});
