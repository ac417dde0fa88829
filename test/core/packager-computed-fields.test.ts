import { createHash } from 'node:crypto';
import t from 'tap';
import { fixture } from '../helpers/start-registry';
import { packageComponent } from '../../src/packager/package-component';

const sha1 = (content: string | Buffer): string => createHash('sha1').update(content).digest('hex');

t.test('packageComponent computes the descriptor fields', async (t) => {
  const before = Date.now();
  const { descriptor, files } = await packageComponent(fixture('core-packaged'));
  const after = Date.now();

  t.same([...files.keys()].sort(), ['package.json', 'public/bold.css', 'server.js', 'server.js.map', 'template.js']);
  t.same(JSON.parse(files.get('package.json')!.toString('utf8')), descriptor, 'package.json holds the computed descriptor');

  const template = files.get('template.js')!.toString('utf8');
  const wrapped = /^var oc=oc\|\|\{\};oc\.components=oc\.components\|\|\{\};oc\.components\["([0-9a-f]{40})"\]=\(function\(\)\{([\s\S]*);return __view\.default\|\|__view;\}\)\(\);\n$/.exec(template);
  t.ok(wrapped, 'template.js registers the view bundle under its key');
  t.equal(descriptor.oc.files.template.hashKey, sha1(wrapped![2]!), 'the template key is the sha1 of the view bundle');
  t.equal(wrapped![1], descriptor.oc.files.template.hashKey);
  t.same(descriptor.oc.files.template, { src: 'template.js', type: 'oc-template-es6', hashKey: sha1(wrapped![2]!) });

  const server = files.get('server.js')!;
  t.same(descriptor.oc.files.dataProvider, { src: 'server.js', type: 'node.js', hashKey: sha1(server), size: server.length });
  t.match(server.toString('utf8'), /toUpperCase/, 'server.js bundles the entry with its local imports');
  t.notMatch(server.toString('utf8'), /require\(["']\.\/shout["']\)|from ["']oc-server["']/, 'nothing is left to resolve at run time');
  t.notMatch(server.toString('utf8'), /sourceMappingURL/, 'server.js does not name its map');
  const map = JSON.parse(files.get('server.js.map')!.toString('utf8'));
  t.equal(map.version, 3);
  t.same(map.sources, ['oc-server/index.ts', 'src/entry.server.ts', 'src/shout.ts'], "server.js.map names the component's files from its folder, and the authoring module as oc-server");
  t.notOk('sourcesContent' in map, 'server.js.map carries no source text');

  t.equal(descriptor.oc.packaged, true);
  t.type(descriptor.oc.date, 'number');
  t.ok(descriptor.oc.date >= before && descriptor.oc.date <= after, 'oc.date is the packaging time');
  t.same(descriptor.oc.files.static, ['public']);
  t.same(files.get('public/bold.css')!.toString('utf8'), 'b{font-weight:700}\n', 'static css is minified by default');

  t.same(
    descriptor.oc.parameters,
    {
      name: { type: 'string', mandatory: true, description: 'declared in code' },
      size: { type: 'number', default: 3 },
      loud: { type: 'boolean', default: false },
    },
    'withParameters is merged into oc.parameters and wins over the descriptor',
  );
  t.same({ name: descriptor.name, version: descriptor.version, state: descriptor.oc.state }, { name: 'core-packaged', version: '3.1.4', state: 'experimental' });
});

t.test('a component without server logic is static: no server.js, no dataProvider', async (t) => {
  const { descriptor, files } = await packageComponent(fixture('core-versions-1.0.0'));
  t.same([...files.keys()].sort(), ['package.json', 'template.js']);
  t.equal(descriptor.oc.files.dataProvider, undefined);
  t.same(descriptor.oc.files.static, []);
});

t.test('a legacy server.js is found without oc.files.data', async (t) => {
  const { descriptor, files } = await packageComponent(fixture('core-legacy'));
  const server = files.get('server.js')!;
  t.same(descriptor.oc.files.dataProvider, { src: 'server.js', type: 'node.js', hashKey: sha1(server), size: server.length });
  t.same(descriptor.oc.parameters, {
    name: { type: 'string', default: 'World' },
    outcome: { type: 'string', enum: ['model', 'error', 'nothing', 'empty'], default: 'model' },
  });
});
