import type { DescriptorSummary } from '../../catalog/descriptor-summary';
import { escapeHtml } from '../../pipeline/escape-html';
import { dateTime, layoutPage, stateBadge } from './page-layout';

/**
 * `GET /` for a browser: every component's latest version with its state, description and
 * publisher, and a search over names and descriptions. `?q=` filters on the server (works without
 * scripts); the inline script filters as one types.
 */
export function componentListPage(baseUrl: string, latest: readonly DescriptorSummary[], query: string): string {
  const needle = query.trim().toLowerCase();
  let shown = 0;
  const items = latest
    .map((descriptor) => {
      const haystack = `${descriptor.name} ${descriptor.description ?? ''}`.toLowerCase();
      const matches = needle === '' || haystack.includes(needle);
      if (matches) shown += 1;
      const publisher = descriptor.oc.publisher ? ` by ${escapeHtml(descriptor.oc.publisher.tenant)}` : '';
      return (
        `<li data-search="${escapeHtml(haystack)}"${matches ? '' : ' hidden'}>` +
        `<h2><a href="${escapeHtml(`${baseUrl}${descriptor.name}/~info`)}">${escapeHtml(descriptor.name)}</a></h2>` +
        `<span class="version">${escapeHtml(descriptor.version)}</span>${stateBadge(descriptor.oc.state)}` +
        `<p>${escapeHtml(descriptor.description ?? '')}</p>` +
        `<p class="meta">Published${publisher} ${dateTime(descriptor.oc.publisher?.date ?? descriptor.oc.date)}</p></li>`
      );
    })
    .join('');
  const main =
    `<h1>Components</h1>` +
    `<form class="search" role="search" method="get"><label for="q">Search</label>` +
    `<input type="search" id="q" name="q" value="${escapeHtml(query)}" placeholder="Name or description" autocomplete="off"><button>Search</button></form>` +
    `<p id="count" class="muted" role="status">${countText(shown, latest.length)}</p>` +
    `<ul class="components" id="components">${items}</ul>`;
  return layoutPage({ title: 'Tessera: components', baseUrl, main, script: SEARCH_SCRIPT });
}

function countText(shown: number, total: number): string {
  if (total === 0) return 'No component is published yet.';
  if (shown === total) return `${total} component${total === 1 ? '' : 's'}`;
  return `${shown} of ${total} components match`;
}

/** Filters the list while typing, keeps `?q=` in the address, and says how many match. */
const SEARCH_SCRIPT = `(()=>{const input=document.getElementById('q'),items=[...document.querySelectorAll('#components li')],count=document.getElementById('count');
${countText.toString()}
input.addEventListener('input',()=>{const needle=input.value.trim().toLowerCase();let shown=0;
for(const item of items){const match=!needle||item.dataset.search.includes(needle);item.hidden=!match;if(match)shown++}
count.textContent=countText(shown,items.length);const url=new URL(location.href);if(needle)url.searchParams.set('q',input.value);else url.searchParams.delete('q');history.replaceState(null,'',url)})})();`;
