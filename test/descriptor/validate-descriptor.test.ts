import t from 'tap';
import { validateDescriptor } from '../../src/descriptor/validate-descriptor';

// A fresh valid source descriptor per test, so each test breaks exactly one rule.
function valid(): any {
  return {
    name: 'hello-world',
    version: '1.2.3',
    description: 'Says hello',
    author: 'Tessera',
    repository: 'https://example.com/hello-world.git',
    license: 'MIT', // unknown npm fields are allowed at the top level
    scripts: { build: 'oc package .' },
    dependencies: { lodash: '^4.17.21' },
    devDependencies: { 'oc-template-es6-compiler': '^6.0.0' },
    oc: {
      files: {
        template: { src: 'template.html', type: 'oc-template-es6' },
        data: 'server.js',
        static: ['img', 'assets/css'],
        env: '.env',
      },
      container: false,
      minify: true,
      renderInfo: true,
      state: 'active',
      plugins: ['log'],
      parameters: {
        name: { type: 'string', mandatory: true, description: 'Who to greet', example: 'World' },
        color: { type: 'string', enum: ['red', 'green'], default: 'red' },
        age: { type: 'number', default: 42 },
        loud: { type: 'boolean', default: false },
      },
    },
  };
}

function problemsOf(value: unknown): string[] {
  const result = validateDescriptor(value);
  return result.ok ? [] : result.problems;
}

t.test('a valid source descriptor is accepted as is', async (t) => {
  const d = valid();
  t.same(validateDescriptor(d), { ok: true, descriptor: d });
});

t.test('name must be kebab-case: uppercase', async (t) => {
  const d = valid();
  d.name = 'Hello-World';
  t.same(problemsOf(d), ['/name must be kebab-case (lowercase letters, digits and dashes)']);
});

t.test('name must be kebab-case: spaces', async (t) => {
  const d = valid();
  d.name = 'hello world';
  t.same(problemsOf(d), ['/name must be kebab-case (lowercase letters, digits and dashes)']);
});

t.test("names of the registry's own routes are refused", async (t) => {
  const d = valid();
  for (const name of ['oc-client', 'metrics', 'livez', 'readyz']) {
    d.name = name;
    t.same(problemsOf(d), [`/name "${name}" is taken by the registry's own route /${name}`], name);
  }
  d.name = 'metrics-panel';
  t.same(problemsOf(d), [], 'a name that only starts like one is fine');
});

t.test('version must be semver', async (t) => {
  for (const version of ['1.2', 'v1.2.3', '01.2.3', '1.2.3-', 'latest']) {
    const d = valid();
    d.version = version;
    t.same(problemsOf(d), ['/version must be a semantic version (major.minor.patch)'], version);
  }
  const d = valid();
  d.version = '1.2.3-beta.1+build.5';
  t.equal(validateDescriptor(d).ok, true, 'prerelease and build are allowed');
});

t.test('version past what semver accepts is rejected even if the regex matches', async (t) => {
  const d = valid();
  d.version = '99999999999999999.0.0';
  t.same(problemsOf(d), ['/version must be a semantic version (major.minor.patch)']);
});

t.test('devDependencies must carry the template compiler', async (t) => {
  const d = valid();
  d.devDependencies = { typescript: '^5.0.0' };
  t.same(problemsOf(d), [
    '/devDependencies must include "oc-template-es6-compiler" for template type "oc-template-es6"',
  ]);
});

t.test('the compiler name must follow the template type', async (t) => {
  const d = valid();
  d.oc.files.template.type = 'oc-template-react';
  t.same(problemsOf(d), [
    '/devDependencies must include "oc-template-react-compiler" for template type "oc-template-react"',
  ]);
});

t.test('devDependencies is required', async (t) => {
  const d = valid();
  delete d.devDependencies;
  t.same(problemsOf(d), ['/devDependencies is required']);
});

t.test('a parameter type must be string, boolean or number', async (t) => {
  const d = valid();
  d.oc.parameters.age = { type: 'object' };
  t.same(problemsOf(d), ['/oc/parameters/age/type must be one of: string, boolean, number']);
});

t.test('a default must have the parameter type', async (t) => {
  const d = valid();
  d.oc.parameters.age.default = '42';
  t.same(problemsOf(d), ["/oc/parameters/age/default must be a number, the parameter's type"]);
});

t.test('enum values must have the parameter type', async (t) => {
  const d = valid();
  d.oc.parameters.color.enum = ['red', 7, true];
  t.same(problemsOf(d), [
    "/oc/parameters/color/enum/1 must be a string, the parameter's type",
    "/oc/parameters/color/enum/2 must be a string, the parameter's type",
  ]);
});

t.test('a default must be one of the enum values', async (t) => {
  const d = valid();
  d.oc.parameters.color.default = 'blue';
  t.same(problemsOf(d), ['/oc/parameters/color/default must be one of the enum values: red, green']);
});

t.test('an unknown field in oc is rejected', async (t) => {
  const d = valid();
  d.oc.colour = 'red';
  d.oc.parameters.name.hidden = true;
  t.same(problemsOf(d), [
    '/oc/colour is not an allowed field',
    '/oc/parameters/name/hidden is not an allowed field',
  ]);
});

t.test('oc.state must be a known state', async (t) => {
  const d = valid();
  d.oc.state = 'retired';
  t.same(problemsOf(d), ['/oc/state must be one of: active, experimental, deprecated']);
});

t.test('static folders may not climb out or be absolute', async (t) => {
  const d = valid();
  d.oc.files.static = ['img', '../secrets', 'a/../../b', '/etc'];
  t.same(problemsOf(d), [
    '/oc/files/static/1 must be a relative folder path without ".."',
    '/oc/files/static/2 must be a relative folder path without ".."',
    '/oc/files/static/3 must be a relative folder path without ".."',
  ]);
});

t.test('parameter names must be camelCase', async (t) => {
  const d = valid();
  d.oc.parameters['user-id'] = { type: 'string' };
  t.same(problemsOf(d), [
    '/oc/parameters/user-id must be named in camelCase (a lowercase letter, then letters and digits)',
  ]);
});

t.test('plugins must be unique, enum must not be empty', async (t) => {
  const d = valid();
  d.oc.plugins = ['log', 'log'];
  d.oc.parameters.color = { type: 'string', enum: [] };
  t.same(problemsOf(d), [
    '/oc/plugins must not contain duplicates (items 0 and 1 are equal)',
    '/oc/parameters/color/enum must have at least 1 item',
  ]);
});

t.test('several problems at once are all listed', async (t) => {
  const d = valid();
  d.name = 'Hello World';
  d.version = '1.0';
  d.devDependencies = {};
  d.oc.state = 'gone';
  d.oc.minify = 'yes';
  d.oc.parameters.age = { type: 'number', default: 'old' };
  delete d.oc.files.template.src;
  t.same(problemsOf(d), [
    '/name must be kebab-case (lowercase letters, digits and dashes)',
    '/version must be a semantic version (major.minor.patch)',
    '/oc/files/template/src is required',
    '/oc/minify must be a boolean',
    '/oc/state must be one of: active, experimental, deprecated',
    '/devDependencies must include "oc-template-es6-compiler" for template type "oc-template-es6"',
    "/oc/parameters/age/default must be a number, the parameter's type",
  ]);
});

t.test('a value that is not an object is rejected', async (t) => {
  t.same(problemsOf(null), ['/ must be an object']);
  t.same(problemsOf([]), ['/ must be an object']);
});

function packaged(): any {
  const d = valid();
  d.oc.files = {
    template: { src: 'template.js', type: 'oc-template-es6', hashKey: '4f9a0c1de2' },
    dataProvider: { src: 'server.js', type: 'node.js', hashKey: 'ab12', size: 1024 },
    static: ['img'],
  };
  Object.assign(d.oc, {
    packaged: true,
    date: 1_700_000_000_000,
    actions: ['subscribe'],
    publisher: { tenant: 'acme', date: 1_700_000_000_500 },
  });
  return d;
}

t.test('a valid packaged descriptor is accepted', async (t) => {
  const d = packaged();
  t.same(validateDescriptor(d), { ok: true, descriptor: d });
});

t.test('a packaged descriptor must point at template.js and carry its hash', async (t) => {
  const d = packaged();
  d.oc.files.template = { src: 'template.html', type: 'oc-template-es6' };
  d.oc.files.dataProvider.hashKey = 'not-hex';
  d.oc.publisher = { tenant: 'acme' };
  t.same(problemsOf(d), [
    '/oc/files/dataProvider/hashKey must be a hex string',
    '/oc/publisher/date is required',
    '/oc/files/template/src must be "template.js" in a packaged descriptor',
    '/oc/files/template/hashKey is required in a packaged descriptor',
  ]);
});
