import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isComponentName, PATTERNS, RESERVED_NAMES } from '../../descriptor/descriptor-schema';
import { CliError, type Command } from '../command';

/** The component templates, one folder each; files end in `.tpl` and `{{name}}` is the component name. */
const TEMPLATES_DIR = path.join(__dirname, '..', '..', '..', '..', 'src', 'cli', 'init-template');

export const initCommand: Command = {
  usage: `Usage: tessera init <name> [--template es6|esm|react]

Creates the folder <name> holding a working component: package.json, a server entry
(src/entry.server.ts) with one parameter, a view, a static folder (public/) and a README.
"tessera package <name>" and "tessera publish <name>" accept it as is.
  --template <type>   the view's template type:
                        es6 (the default)  src/view.js, a function from the model to HTML
                        esm                src/entry.client.tsx, a Preact component, hydrated
                        react              src/entry.client.tsx, a React component, hydrated`,
  async run(argv) {
    const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { template: { type: 'string', default: 'es6' } } });
    if (positionals.length !== 1) throw new CliError('tessera init needs exactly one component name, e.g. "tessera init my-greeting".');
    const name = positionals[0]!;
    if (!isComponentName(name)) throw new CliError(`"${name}" cannot be a component name: it ${PATTERNS.name.message}, e.g. "my-greeting".`);
    if (RESERVED_NAMES.includes(name)) throw new CliError(`"${name}" cannot be a component name: the registry's own route /${name} answers at that address.`);
    const available = await readdir(TEMPLATES_DIR);
    if (!available.includes(values.template)) {
      throw new CliError(`There is no "${values.template}" template; available: ${available.sort().join(', ')}.`);
    }
    const target = path.resolve(name);
    if (existsSync(target)) throw new CliError(`${name} already exists here; choose another name or remove it first.`);

    const source = path.join(TEMPLATES_DIR, values.template);
    for (const file of await templateFiles(source)) {
      const content = (await readFile(path.join(source, file), 'utf8')).replaceAll('{{name}}', name);
      const destination = path.join(target, file.replace(/\.tpl$/, ''));
      await mkdir(path.dirname(destination), { recursive: true });
      await writeFile(destination, content);
    }
    process.stdout.write(
      `Created ${name}/ (template ${values.template}). Next:\n` +
        `  tessera dev ${name}        # try it on a local registry\n` +
        `  tessera publish ${name} --registry <url> --token <token>\n`,
    );
  },
};

async function templateFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}
