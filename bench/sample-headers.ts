import type { RequestHeaders } from '../src/pipeline/call-values';

/** The headers of a request as wrk sends a batch (what the project's load tests send). */
export const WRK_HEADERS: RequestHeaders = { host: '127.0.0.1:8080', 'content-type': 'application/json', 'content-length': '402' };

/** The same request as a browser sends it: a page's headers, cookies included. */
export const BROWSER_HEADERS: RequestHeaders = {
  ...WRK_HEADERS,
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  accept: 'application/json',
  'accept-language': 'en-GB,en;q=0.9,fr;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
  referer: 'https://www.example.com/products/123',
  cookie: `site=1; _ga=GA1.2.123456789.1700000000; session=${'x'.repeat(200)}; oc.oc-greeting.seen=3`,
};
