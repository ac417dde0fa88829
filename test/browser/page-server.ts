import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface PageServer {
  /** `http://127.0.0.1:<port>/`: another origin than the registry's. */
  origin: string;
  /** Requests each path (without query) received through `/proxy/`, `/flaky/` and `/rendered-answer/`. */
  hits: Map<string, number>;
  /** HTML served at each path; filled once `origin` is known. */
  pages: Record<string, string>;
}

/**
 * The embedding site, on its own loopback port: serves the given pages, and stands in front of the
 * registry for the cases a registry does not show on demand:
 * - `/proxy/<path>` forwards to the registry and counts the requests (retries, lazy loading);
 * - `/flaky/<path>` answers `503 OVERLOADED` to the first two requests of a path, then forwards;
 * - `/rendered-answer/<path>` forwards asking for the rendered answer whatever the page asked.
 */
export async function startPageServer(t: Teardown, registryUrl: string): Promise<PageServer> {
  const hits = new Map<string, number>();
  const pages: Record<string, string> = {};
  const server = http.createServer((request, response) => {
    void answer(request, response).catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const page = pages[url.pathname];
    if (page !== undefined) return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    const match = /^\/(proxy|flaky|rendered-answer)\/(.*)$/.exec(url.pathname);
    if (!match) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const [, kind, path] = match as unknown as [string, string, string];
    const cors = { 'access-control-allow-origin': '*', 'content-type': 'application/json; charset=utf-8' };
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    if (kind === 'flaky' && count <= 2) {
      return void response.writeHead(503, cors).end(JSON.stringify({ code: 'OVERLOADED', error: 'The registry is at capacity; retry later.', name: '', requestVersion: '' }));
    }
    const accept = kind === 'rendered-answer' ? 'application/json' : String(request.headers.accept ?? '');
    const forwarded = await fetch(`${registryUrl}${path}${url.search}`, { headers: { accept } });
    response.writeHead(forwarded.status, cors).end(await forwarded.text());
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    // The browser keeps connections alive; they must not hold the close up.
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, hits, pages };
}
