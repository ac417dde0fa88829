// `npm test` runs this after the build, with the number of parts Node's runner runs at once: writes
// that many parts under dist/test-parts/, each a process that runs test files one after the other
// (test/helpers/run-files.ts). The parts share one list of every compiled test file, the longest
// first, and each takes the next file nobody has taken (a claim in dist/test-parts/claims/): the
// suite ends when its last long file does, not when the part dealt the most work does. How long a
// file runs is test/file-seconds.json's (scripts/record-file-seconds.js); a file it lacks counts as
// its median.
const { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');
const tests = path.join(dist, 'test');
const parts = path.join(dist, 'test-parts');
const claims = path.join(parts, 'claims');
const SECONDS = path.join(root, 'test', 'file-seconds.json');

function testFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(full);
    return entry.name.endsWith('.test.js') ? [path.relative(tests, full).split(path.sep).join('/')] : [];
  });
}

/** The files, the longest first (ties in path order). */
function longestFirst(files, seconds) {
  const known = files.map((file) => seconds[file]).filter((value) => typeof value === 'number').sort((a, b) => a - b);
  const median = known.length > 0 ? known[Math.floor(known.length / 2)] : 0;
  const of = (file) => (typeof seconds[file] === 'number' ? seconds[file] : median);
  return [...files].sort((a, b) => of(b) - of(a) || (a < b ? -1 : 1));
}

const count = Number(process.argv[2]);
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write(`write-test-parts.js wants the number of parts, a whole number from 1 (it got ${process.argv[2]}).\n`);
  process.exit(2);
}
const order = longestFirst(testFiles(tests), JSON.parse(readFileSync(SECONDS, 'utf8')));

rmSync(parts, { recursive: true, force: true });
mkdirSync(claims, { recursive: true });
const list = order.map((file) => `  ${JSON.stringify(file)},`).join('\n');
for (let index = 1; index <= count; index++) {
  const name = `part-${String(index).padStart(2, '0')}.test.js`;
  const source = `// Written by scripts/write-test-parts.js: every test file, the longest first; the parts take them in turn.\nrequire('../test/helpers/run-files').runFiles([\n${list}\n], require('node:path').join(__dirname, 'claims'));\n`;
  writeFileSync(path.join(parts, name), source);
}
