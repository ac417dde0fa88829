import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { GREETING, packagedFiles, put, startPublishRegistry } from './publish-helpers';

const notValid = (problem: string) => ({
  code: 'PACKAGE_NOT_VALID',
  error: 'The package of publish-greeting@1.0.0 is not valid.',
  name: 'publish-greeting',
  requestVersion: '1.0.0',
  details: { problems: [`server.js.map ${problem} (a tail maps stack frames with it: fix it, or leave it out)`] },
});

t.test('a package whose server.js.map is no usable source map is refused, naming what is wrong; the packaged one is stored', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const files = await packagedFiles(GREETING);
  const real = JSON.parse(files.get('server.js.map')!.toString('utf8'));
  const refused: Array<[string, string]> = [
    ['{"version": 3, "sources": [', 'is not JSON'],
    ['[3]', 'is not a JSON object'],
    [JSON.stringify({ ...real, version: 2 }), 'is not a version 3 source map'],
    [JSON.stringify({ version: 3, sections: [] }), 'is an index map (sections): a plain map is read'],
    [JSON.stringify({ ...real, sources: [] }), 'has malformed mappings: a source index out of the sources on line 1'],
    [JSON.stringify({ ...real, mappings: 'AAAA,!' }), 'has malformed mappings: a character that is not base64 VLQ at character 5'],
    [JSON.stringify({ ...real, mappings: 'AA' }), 'has malformed mappings: a segment of 2 fields on line 1'],
    [`{"version": 3, "sources": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 'nests deeper than 4 levels'],
    [JSON.stringify({ ...real, names: ['x'.repeat(5 * 1024 * 1024)] }), 'is over 5242880 bytes'],
  ];
  for (const [map, problem] of refused) {
    files.set('server.js.map', Buffer.from(map));
    const answer = await put(url, 'publish-greeting/1.0.0', await packTarball(files));
    t.equal(answer.status, 400, problem);
    t.same(answer.body, notValid(problem));
  }
  files.set('server.js.map', Buffer.from(JSON.stringify(real)));
  t.equal((await put(url, 'publish-greeting/1.0.0', await packTarball(files))).status, 201);
  const stored = await new FileSystemStorage(storagePath).readFile('publish-greeting', '1.0.0', 'server.js.map');
  t.same(JSON.parse(stored!.toString('utf8')), real);
});
