import t from 'tap';
import { fixture } from '../helpers/start-registry';
import { TesseraError } from '../../src/errors/errors';
import { packageComponent } from '../../src/packager/package-component';

async function failureOf(dir: string): Promise<{ code: string; status: number; message: string; details: unknown }> {
  try {
    await packageComponent(fixture(dir));
  } catch (error) {
    if (!(error instanceof TesseraError)) throw error;
    return { code: error.code, status: error.status, message: error.message, details: error.details };
  }
  throw new Error(`${dir} was packaged`);
}

t.test('an invalid descriptor lists every problem with its path', async (t) => {
  t.same(await failureOf('core-broken-descriptor'), {
    code: 'PACKAGE_NOT_VALID',
    status: 400,
    message: 'package.json is not a valid component descriptor.',
    details: {
      problems: [
        '/name must be kebab-case (lowercase letters, digits and dashes)',
        '/version must be a semantic version (major.minor.patch)',
        '/oc/state must be one of: active, experimental, deprecated',
        '/oc/parameters/shape/type must be one of: string, boolean, number',
        '/devDependencies must include "oc-template-es6-compiler" for template type "oc-template-es6"',
      ],
    },
  });
});

t.test('a view that does not compile', async (t) => {
  t.same(await failureOf('core-broken-view'), {
    code: 'PACKAGE_NOT_VALID',
    status: 400,
    message: 'The template "view.js" does not compile.',
    details: { problems: ['view.js:2: Unterminated string literal'] },
  });
});

t.test('oc.files.data naming a missing file', async (t) => {
  const problem = 'The server entry "src/missing.server.ts" named by oc.files.data does not exist.';
  t.same(await failureOf('core-broken-data'), { code: 'PACKAGE_NOT_VALID', status: 400, message: problem, details: { problems: [problem] } });
});

t.test('a server entry that exhausts memory while it loads', async (t) => {
  t.same(await failureOf('hostile-memory-at-load'), {
    code: 'PACKAGE_NOT_VALID',
    status: 400,
    message: 'The server entry fails when loaded.',
    details: { problems: ['Isolate was disposed during execution due to memory limit'] },
  });
});
