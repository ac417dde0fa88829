// Writes test/file-seconds.json, how long each test file ran in the last `npm test` (each part's
// claims in dist/test-parts/claims/, test/helpers/run-files.ts): the order in which the next runs
// hand the files out (write-test-parts.js). Run it after `npm test` when files were added or grew.
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const claims = path.join(root, 'dist', 'test-parts', 'claims');
const seconds = {};
for (const claim of readdirSync(claims)) {
  const text = readFileSync(path.join(claims, claim), 'utf8');
  // A claim still empty is a file whose part ended before it did: no time to keep.
  if (text === '') continue;
  const { file, seconds: ran } = JSON.parse(text);
  seconds[file] = Math.round(ran * 10) / 10;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(path.join(root, 'test', 'file-seconds.json'), `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(`test/file-seconds.json: ${Object.keys(sorted).length} files\n`);
