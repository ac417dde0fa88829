import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorReply } from '../error-body';
import { wantsHtml } from '../negotiate';
import { escapeHtml } from '../../pipeline/escape-html';
import type { RegistryServices } from '../registry-services';

/** `GET /:name/~info` and `GET /:name/:version/~info`: the published descriptor, its versions and publisher. */
export function registerComponentInfo(app: FastifyInstance, services: RegistryServices): void {
  const handler = async (request: FastifyRequest<{ Params: { name: string; version?: string } }>, reply: FastifyReply) => {
    const { name } = request.params;
    const requestVersion = request.params.version ?? '';
    try {
      const component = services.catalog.resolve(name, requestVersion);
      const info = { ...component.descriptor, allVersions: services.catalog.versions(name), requestVersion };
      if (wantsHtml(request)) return reply.type('text/html; charset=utf-8').send(infoPage(info));
      return reply.send(info);
    } catch (error) {
      const { status, body } = errorReply(error, name, requestVersion, services.config.development);
      return reply.code(status).send(body);
    }
  };
  app.get('/:name/~info', handler);
  app.get('/:name/:version/~info', handler);
}

function infoPage(info: { name: string; version: string; description?: string; allVersions: readonly string[]; oc: { state?: string; parameters?: object; publisher?: { tenant: string; date: number } } }): string {
  const parameters = Object.entries(info.oc.parameters ?? {})
    .map(([name, definition]) => `<li><code>${escapeHtml(name)}</code>: ${escapeHtml(JSON.stringify(definition))}</li>`)
    .join('');
  const publisher = info.oc.publisher ? `<p>Published by ${escapeHtml(info.oc.publisher.tenant)} on ${new Date(info.oc.publisher.date).toISOString()}</p>` : '';
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(info.name)}@${escapeHtml(info.version)}</title></head><body>` +
    `<h1>${escapeHtml(info.name)} <small>${escapeHtml(info.version)}</small></h1><p>${escapeHtml(info.description ?? '')}</p>` +
    `<p>State: ${escapeHtml(info.oc.state ?? 'active')}</p>${publisher}<h2>Parameters</h2><ul>${parameters}</ul>` +
    `<h2>Versions</h2><p>${info.allVersions.map(escapeHtml).join(', ')}</p></body></html>`
  );
}
