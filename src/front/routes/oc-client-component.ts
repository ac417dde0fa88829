import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveVersion } from '../../catalog/resolve-version';
import { TesseraError } from '../../errors/errors';
import { buildHref } from '../../pipeline/build-href';
import { escapeHtml } from '../../pipeline/escape-html';
import { errorReply } from '../error-body';
import type { RegistryServices } from '../registry-services';

const NAME = 'oc-client';
/** The browser client is versioned with the registry. */
const VERSION = (JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

/**
 * `oc-client` answers as a component (decisions §10), as in OC's registries: OC's node client warms
 * up by reading `GET /oc-client/~info` and rendering `oc-client`, whose HTML is the script element
 * that loads the browser client. It has no server logic and no parameters; its answer is always
 * rendered, which every OC client accepts.
 */
export function registerOcClientComponent(app: FastifyInstance, services: RegistryServices): void {
  const resolved = (request: FastifyRequest<{ Params: { version?: string } }>): string => {
    const requestVersion = request.params.version ?? '';
    if (resolveVersion([VERSION], requestVersion) === undefined) {
      throw new TesseraError('NOT_FOUND', `Component "${NAME}" has no version matching "${requestVersion}"; published versions: ${VERSION}.`);
    }
    return requestVersion;
  };
  const answer = (build: (requestVersion: string) => object) => async (request: FastifyRequest<{ Params: { version?: string } }>, reply: FastifyReply) => {
    try {
      return reply.send(build(resolved(request)));
    } catch (error) {
      const { status, body } = errorReply(error, NAME, request.params.version ?? '');
      return reply.code(status).send(body);
    }
  };

  const info = answer((requestVersion) => ({
    name: NAME,
    version: VERSION,
    description: "The registry's browser client: renders <oc-component> elements in pages.",
    oc: { container: false, renderInfo: false, parameters: {}, files: { template: { type: 'oc-template-es6' }, static: [] } },
    allVersions: [VERSION],
    requestVersion,
  }));
  const render = answer((requestVersion) => {
    const baseUrl = services.publicBaseUrl.value;
    return {
      href: buildHref(baseUrl, NAME, requestVersion, {}),
      name: NAME,
      version: VERSION,
      requestVersion,
      html: `<script src="${escapeHtml(`${baseUrl}oc-client/client.js`)}"></script>`,
      type: 'oc-component',
      renderMode: 'rendered',
      baseUrl,
    };
  });
  app.get(`/${NAME}/~info`, info);
  app.get(`/${NAME}/:version/~info`, info);
  app.get(`/${NAME}`, render);
  app.get(`/${NAME}/:version`, render);
}
