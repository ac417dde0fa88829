import type { DescriptorSummary } from '../../catalog/descriptor-summary';
import { escapeHtml } from '../../pipeline/escape-html';
import { PAGE_SIZE, tenantOf, type ListPage, type ListRequest } from './component-search';
import { dateTime, layoutPage, stateBadge } from './page-layout';

/**
 * `GET /` for a browser: one page of the components (their latest version, state, description,
 * tenant and date), found and paged on the server (`?q=`, `?page=`, `?per=`), so the page stays
 * small however many are published. It works without scripts; the inline script searches as one
 * types by asking the server for the first page of the new query.
 */
export function componentListPage(baseUrl: string, list: ListPage, isDeprecated: (name: string, version: string) => boolean): string {
  const items = list.items.map((descriptor) => listItem(baseUrl, descriptor, isDeprecated(descriptor.name, descriptor.version))).join('');
  const per = list.per === PAGE_SIZE ? '' : `<input type="hidden" name="per" value="${list.per}">`;
  const main =
    `<h1>Components</h1>` +
    `<form class="search" role="search" method="get"><label for="q">Search</label>` +
    `<input type="search" id="q" name="q" value="${escapeHtml(list.query)}" placeholder="Name, description or tenant" autocomplete="off">${per}<button>Search</button></form>` +
    `<div id="results" data-q="${escapeHtml(list.query)}">` +
    `<p id="count" class="muted" role="status">${countText(list)}</p>` +
    `<ul class="components" id="components">${items}</ul>${pager(baseUrl, list)}</div>`;
  return layoutPage({ title: 'Tessera: components', baseUrl, main, script: SEARCH_SCRIPT });
}

/** A component's latest version; a deprecation of it (decisions §14) shows as its state. */
function listItem(baseUrl: string, descriptor: DescriptorSummary, deprecated: boolean): string {
  return (
    `<li><h2><a href="${escapeHtml(`${baseUrl}${descriptor.name}/~info`)}">${escapeHtml(descriptor.name)}</a></h2>` +
    `<span class="version">${escapeHtml(descriptor.version)}</span>${stateBadge(deprecated ? 'deprecated' : descriptor.oc.state)}` +
    `<p>${escapeHtml(descriptor.description ?? '')}</p>` +
    `<p class="meta">Tenant <span class="tenant">${escapeHtml(tenantOf(descriptor) ?? '—')}</span> · Published ${dateTime(descriptor.oc.publisher?.date ?? descriptor.oc.date)}</p></li>`
  );
}

function countText(list: ListPage): string {
  if (list.total === 0) return 'No component is published yet.';
  const found = list.matched === list.total ? `${list.total} component${list.total === 1 ? '' : 's'}` : `${list.matched} of ${list.total} components match`;
  if (list.pages === 1) return found;
  return `${found}; showing ${list.first}–${list.first + list.items.length - 1}`;
}

/** Previous and next links, keeping the query and page size; nothing when one page holds every match. */
function pager(baseUrl: string, list: ListPage): string {
  if (list.pages === 1) return '';
  const link = (page: number, rel: 'prev' | 'next', text: string) =>
    page < 1 || page > list.pages
      ? `<span class="${rel}" aria-disabled="true">${text}</span>`
      : `<a class="${rel}" rel="${rel}" href="${escapeHtml(pageHref(baseUrl, { ...list, page }))}">${text}</a>`;
  return (
    `<nav class="pager" aria-label="Pages">${link(list.page - 1, 'prev', '← Previous')}` +
    `<span class="current" aria-current="page">Page ${list.page} of ${list.pages}</span>${link(list.page + 1, 'next', 'Next →')}</nav>`
  );
}

/** The list's address for another page; defaults are left out. */
export function pageHref(baseUrl: string, request: ListRequest): string {
  const search = new URLSearchParams();
  if (request.query) search.set('q', request.query);
  if (request.page > 1) search.set('page', String(request.page));
  if (request.per !== PAGE_SIZE) search.set('per', String(request.per));
  const text = search.toString();
  return text ? `${baseUrl}?${text}` : baseUrl;
}

/**
 * As one types: asks the server for the first page of the new query (the latest request wins),
 * puts its results in place of these and keeps the query in the address.
 */
const SEARCH_SCRIPT = `(()=>{const form=document.querySelector('form.search'),input=document.getElementById('q');let timer,pending;
async function search(){pending?.abort();const controller=pending=new AbortController();const url=new URL(location.href);url.search='';
const query=input.value.trim(),per=form.elements.per?.value;if(query)url.searchParams.set('q',query);if(per)url.searchParams.set('per',per);
const results=document.getElementById('results');results.setAttribute('aria-busy','true');
try{const response=await fetch(url,{headers:{accept:'text/html'},signal:controller.signal});if(!response.ok)return;
const next=new DOMParser().parseFromString(await response.text(),'text/html').getElementById('results');
if(controller===pending&&next){results.replaceWith(next);history.replaceState(null,'',url)}}catch{}finally{results.removeAttribute('aria-busy')}}
input.addEventListener('input',()=>{clearTimeout(timer);timer=setTimeout(search,150)})})();`;
