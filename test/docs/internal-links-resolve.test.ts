import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { markdownPages, REPO_ROOT } from './docs-helpers';

/** GitHub's anchor of a heading: lowercase, punctuation but `-` dropped, each space a `-`. */
export const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

/** A page's lines outside fenced code blocks. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.startsWith('```')) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** The anchors of a page's headings; a repeated heading gets `-1`, `-2`, as on GitHub. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The targets of a page's Markdown links and images, outside code. */
function linksOf(text: string): string[] {
  const links: string[] = [];
  for (const line of proseLines(text)) {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push(match[1]!);
  }
  return links;
}

t.test('slug follows GitHub', async (t) => {
  t.equal(slug('What the registry checks on `PUT /:name/:version`'), 'what-the-registry-checks-on-put-nameversion');
  t.equal(slug("The catalog's journal and index"), 'the-catalogs-journal-and-index');
  t.equal(slug('The server context (`ctx`)'), 'the-server-context-ctx');
});

t.test('every relative link and anchor in README.md and docs/ resolves', async (t) => {
  const pages = markdownPages();
  t.ok(pages.length > 10, `the pages are found (${pages.length})`);
  const anchors = new Map<string, Set<string>>();
  const anchorsFor = (page: string): Set<string> => {
    if (!anchors.has(page)) anchors.set(page, anchorsOf(readFileSync(path.join(REPO_ROOT, page), 'utf8')));
    return anchors.get(page)!;
  };
  for (const page of pages) {
    const links = linksOf(readFileSync(path.join(REPO_ROOT, page), 'utf8'));
    for (const link of links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? page : path.relative(REPO_ROOT, path.resolve(path.dirname(path.join(REPO_ROOT, page)), decodeURIComponent(file)));
      const where = `${page}: ${link}`;
      if (!existsSync(path.join(REPO_ROOT, target))) {
        t.fail(`${where}: ${target} does not exist`);
        continue;
      }
      if (anchor !== undefined) {
        if (!target.endsWith('.md') || statSync(path.join(REPO_ROOT, target)).isDirectory()) {
          t.fail(`${where}: an anchor into something that is not a Markdown page`);
          continue;
        }
        t.ok(anchorsFor(target).has(anchor), `${where}: ${target} has a heading #${anchor}`);
      } else {
        t.pass(where);
      }
    }
  }
});
