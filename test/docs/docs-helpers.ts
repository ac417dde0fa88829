import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's root, from dist/test/docs/. */
export const REPO_ROOT = path.join(__dirname, '..', '..', '..');

/** A page of the documentation, by its path from the repository's root. */
export const readDoc = (relative: string): string => readFileSync(path.join(REPO_ROOT, relative), 'utf8');

/** Every `.ts` file under a folder of the repository, recursively, as paths from the root. */
export function sourceFiles(folder: string): string[] {
  const entries = readdirSync(path.join(REPO_ROOT, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)));
}

/** Every Markdown page of the documentation: README.md and docs/**.md, as paths from the root. */
export function markdownPages(): string[] {
  const docs = readdirSync(path.join(REPO_ROOT, 'docs'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)));
  return ['README.md', ...docs.sort()];
}
