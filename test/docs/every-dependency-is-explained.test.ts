import t from 'tap';
import { readDoc } from './docs-helpers';

// Read, not imported: an import would have the build copy package.json into dist/.
const packageJson = JSON.parse(readDoc('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

t.test("every dependency of package.json has its line in the README's table of why each is here", async (t) => {
  const readme = readDoc('README.md');
  const section = readme.slice(readme.indexOf('## Dependencies and why each is here'));
  t.ok(section.length < readme.length, 'the README has the section');
  const named = new Set(
    section
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| package') && !line.startsWith('|---'))
      .flatMap((line) => line.split('|')[1]!.replace(/\(dev[^)]*\)/, '').split(','))
      .map((name) => name.trim()),
  );
  for (const name of [...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.devDependencies)]) {
    t.ok(named.has(name), `${name} is explained`);
  }
});
