import { existsSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './command';

/** The absolute path of a component folder named on the command line; a folder without package.json is refused with what to do. */
export function componentFolder(given: string): string {
  const dir = path.resolve(given);
  if (!existsSync(path.join(dir, 'package.json'))) throw new CliError(`${dir} has no package.json; create a component with "tessera init <name>".`);
  return dir;
}
