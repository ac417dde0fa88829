// `npm test` runs this after the build: it shares the compiled test files out between the parts of
// the suite, each a file under dist/test-parts/ that runs its share in one process, one file after
// the other (test/helpers/run-files.ts), and that Node's runner runs beside the other parts.
// Round-robin over the files in path order, so that each folder's heavy files (replicas, S3
// servers, browsers) spread over the parts. A file whose source has a line starting
// `// Runs alone:`, which says why, runs in a part of its own.
const { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const PARTS = 12;
const dist = path.join(__dirname, '..', 'dist');
const tests = path.join(dist, 'test');
const parts = path.join(dist, 'test-parts');

function testFiles(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(full);
      return entry.name.endsWith('.test.js') ? [path.relative(tests, full).split(path.sep).join('/')] : [];
    });
}

const runsAlone = (file) => {
  const source = readFileSync(path.join(tests, file), 'utf8');
  return /^\/\/ Runs alone:/m.test(source);
};

const files = testFiles(tests);
const shares = Array.from({ length: PARTS }, () => []);
const alone = [];
let next = 0;
for (const file of files) {
  if (runsAlone(file)) alone.push([file]);
  else shares[next++ % PARTS].push(file);
}

rmSync(parts, { recursive: true, force: true });
mkdirSync(parts);
[...shares.filter((share) => share.length > 0), ...alone].forEach((share, index) => {
  const name = `part-${String(index + 1).padStart(2, '0')}.test.js`;
  const list = share.map((file) => `  ${JSON.stringify(file)},`).join('\n');
  writeFileSync(path.join(parts, name), `// Written by scripts/write-test-parts.js: the test files this part runs, in this order.\nrequire('../test/helpers/run-files').runFiles([\n${list}\n]);\n`);
});
