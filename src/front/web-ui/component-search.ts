import type { DescriptorSummary } from '../../catalog/descriptor-summary';

/** Components on one page of the web UI's list, unless `?per=` says otherwise. */
export const PAGE_SIZE = 50;
/** The most `?per=` may ask for: one page stays small whatever the catalog's size. */
export const MAX_PAGE_SIZE = 200;

export interface ListRequest {
  /** What the visitor searches for; empty lists everything. */
  query: string;
  /** From 1; past the last page means the last page. */
  page: number;
  per: number;
}

export interface ListPage extends ListRequest {
  /** The components on this page. */
  items: DescriptorSummary[];
  /** How many match the query (all, without one). */
  matched: number;
  /** How many are published. */
  total: number;
  /** How many pages the matches fill (at least 1). */
  pages: number;
  /** The position of this page's first item among the matches, from 1. */
  first: number;
}

/** The tenant that published a version, when it was published with a token. */
export const tenantOf = (descriptor: DescriptorSummary): string | undefined => descriptor.oc.publisher?.tenant;

/**
 * One page of the components whose name, description or publishing tenant holds every word of the
 * query (ignoring case), in the catalog's order. A page past the last is the last page: the end
 * moves as versions are published and as the query narrows, so an old link still shows something.
 */
export function searchComponents(latest: readonly DescriptorSummary[], request: ListRequest): ListPage {
  const words = request.query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches =
    words.length === 0
      ? latest
      : latest.filter((descriptor) => {
          const haystack = `${descriptor.name} ${descriptor.description ?? ''} ${tenantOf(descriptor) ?? ''}`.toLowerCase();
          return words.every((word) => haystack.includes(word));
        });
  const pages = Math.max(1, Math.ceil(matches.length / request.per));
  const page = Math.min(request.page, pages);
  const start = (page - 1) * request.per;
  return {
    query: request.query,
    page,
    per: request.per,
    items: matches.slice(start, start + request.per),
    matched: matches.length,
    total: latest.length,
    pages,
    first: start + 1,
  };
}
