import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Catalog } from '../../catalog/catalog';
import { escapeHtml } from '../../pipeline/escape-html';

/**
 * `GET /~preview/:name` on the development registry: a page showing the newest build rendered with
 * the query's parameters (made live by the browser client), a form for those parameters, the error
 * with its stack when rendering fails, and a script that reloads the page when a new build is served.
 */
export function registerPreview(app: FastifyInstance, catalog: Catalog): void {
  app.get('/~preview/:name', async (request: FastifyRequest<{ Params: { name: string }; Querystring: Record<string, string> }>, reply) => {
    const { name } = request.params;
    const query = new URLSearchParams(request.query).toString();
    // Rendered through the registry's own route, so the preview shows exactly what consumers get.
    const rendered = await app.inject({
      method: 'GET',
      url: `/${encodeURIComponent(name)}${query ? `?${query}` : ''}`,
      headers: { host: request.headers.host ?? 'localhost', 'accept-language': request.headers['accept-language'] ?? '' },
    });
    const answer = rendered.json<{ html?: string; version?: string; code?: string; error?: string; stack?: string; details?: unknown }>();
    const latest = catalog.latest(name);
    const content =
      rendered.statusCode === 200
        ? `<main>${answer.html ?? ''}</main>`
        : `<pre class="error">${escapeHtml(`${rendered.statusCode} ${answer.code}: ${answer.error}\n${answer.details ? `${JSON.stringify(answer.details, null, 2)}\n` : ''}${answer.stack ?? ''}`)}</pre>`;
    // A component never built is a 404 (the page still waits for its first build and reloads then).
    return reply.code(latest ? 200 : 404).type('text/html; charset=utf-8').send(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(name)}: preview</title>` +
        `<style>body{font-family:system-ui,sans-serif;margin:2rem}header{border-bottom:1px solid #ccc;margin-bottom:1rem}.error{color:#a00;white-space:pre-wrap}</style></head><body>` +
        `<header><h1>${escapeHtml(name)} <small>${escapeHtml(latest?.version ?? 'not built')}</small></h1>` +
        `${parameterForm(latest?.descriptor.oc.parameters ?? {}, request.query)} <a href="/${escapeHtml(name)}/~info">info</a></header>` +
        // The browser client hydrates esm and react components, and replays the development console.
        `${content}<script src="/oc-client/client.js"></script>${reloadScript(name, latest?.version ?? '')}</body></html>`,
    );
  });
}

function parameterForm(parameters: Record<string, { type: string; description?: string }>, query: Record<string, string>): string {
  const fields = Object.entries(parameters)
    .map(
      ([name, definition]) =>
        `<label>${escapeHtml(name)} <input name="${escapeHtml(name)}" value="${escapeHtml(query[name] ?? '')}" placeholder="${escapeHtml(definition.description ?? definition.type)}"></label> `,
    )
    .join('');
  return `<form>${fields}<button>Render</button></form>`;
}

/** Polls the component's info (no server logic runs) and reloads when another build is served. */
function reloadScript(name: string, version: string): string {
  const url = JSON.stringify(`/${encodeURIComponent(name)}`).replace(/</g, '\\u003c');
  return (
    `<script>setInterval(async()=>{try{const r=await fetch(${url},{headers:{accept:'application/vnd.oc.info+json'}});` +
    `if(r.ok&&(await r.json()).version!==${JSON.stringify(version).replace(/</g, '\\u003c')})location.reload()}catch{}},1000)</script>`
  );
}
