import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageComponent, writePackage } from '../../packager/package-component';
import { CliError, type Command } from '../command';
import { componentFolder } from '../component-folder';

export const packageCommand: Command = {
  usage: `Usage: tessera package <dir>

Validates the component's package.json, compiles its view, bundles its server logic with its
dependencies and writes the publishable package to <dir>/_package.`,
  async run(argv) {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
    if (positionals.length !== 1) throw new CliError('tessera package needs exactly one component folder, e.g. "tessera package ./my-component".');
    const dir = componentFolder(positionals[0]!);
    const packaged = await packageComponent(dir);
    const target = await writePackage(dir, packaged);
    process.stdout.write(`Packaged ${packaged.descriptor.name}@${packaged.descriptor.version} into ${path.relative(process.cwd(), target) || '.'}\n`);
  },
};
