import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveVersion } from '../../catalog/resolve-version';
import { TesseraError } from '../../errors/errors';
import { buildHref } from '../../pipeline/build-href';
import { escapeHtml } from '../../pipeline/escape-html';
import { errorReply } from '../error-body';
import { renderModeOf } from '../negotiate';
import { INFO_ONLY, RENDERED } from '../openapi/component-shapes';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';
import { REGISTRY_VERSION } from '../registry-version';

export const OC_CLIENT = 'oc-client';
/** The browser client is versioned with the registry. */
const VERSION = REGISTRY_VERSION;

/**
 * `oc-client` answers as a component (decisions §10), as in OC's registries: OC's node client warms
 * up by reading `GET /oc-client/~info` and rendering `oc-client` (by GET, or as a batch item), whose
 * HTML is the script element that loads the browser client. It has no server logic and no
 * parameters; its answer is rendered even when unrendered is asked for, which every OC client accepts.
 */
export function registerOcClientComponent(app: FastifyInstance, services: RegistryServices): void {
  const answer = (build: (requestVersion: string) => object) => async (request: FastifyRequest<{ Params: { version?: string } }>, reply: FastifyReply) => {
    const requestVersion = request.params.version ?? '';
    try {
      return reply.send(build(resolved(requestVersion)));
    } catch (error) {
      const { status, body } = errorReply(error, OC_CLIENT, requestVersion);
      return reply.code(status).send(body);
    }
  };
  const info = answer((requestVersion) => ({
    name: OC_CLIENT,
    version: VERSION,
    description: "The registry's browser client: renders <oc-component> elements in pages.",
    oc: { container: false, renderInfo: false, parameters: {}, files: { template: { type: 'oc-template-es6' }, static: [] } },
    allVersions: [VERSION],
    requestVersion,
  }));
  const rendered = answer((requestVersion) => renderOcClient(requestVersion, services.publicBaseUrl.value, false));
  // Asked for info (Accept), it answers exactly OC's four fields, as a component does (decisions §1).
  const infoOnly = answer((requestVersion) => ({ type: 'oc-component', version: VERSION, requestVersion, name: OC_CLIENT }));
  const render = (request: FastifyRequest<{ Params: { version?: string } }>, reply: FastifyReply) =>
    (renderModeOf(request) === 'info' ? infoOnly : rendered)(request, reply);
  app.get(`/${OC_CLIENT}/~info`, { schema: schemaOf('info') }, info);
  app.get(`/${OC_CLIENT}/:version/~info`, { schema: schemaOf('info') }, info);
  app.get(`/${OC_CLIENT}`, { schema: schemaOf('render') }, render);
  app.get(`/${OC_CLIENT}/:version`, { schema: schemaOf('render') }, render);
}

const schemaOf = (answer: 'info' | 'render') => ({
  summary: answer === 'info' ? "The `oc-client` component's descriptor" : 'Render the `oc-client` component',
  description:
    answer === 'info'
      ? "The registry's own `oc-client` component, as OC's registries have it: its descriptor and versions (OC's node client reads it to warm up)."
      : 'The `<script>` element that loads the browser client; rendered even when unrendered is asked for, as OC answers. `Accept: application/vnd.oc.info+json` answers its version only.',
  tags: ['Browser client'],
  response: {
    200:
      answer === 'info'
        ? { description: 'The descriptor with `allVersions` and `requestVersion`.', type: 'object', additionalProperties: true }
        : { description: 'The rendered component, or its version.', anyOf: [RENDERED, INFO_ONLY] },
    ...errorResponses('NOT_FOUND'),
  },
});

/** The rendered answer of `oc-client`; NOT_FOUND when the version expression does not match. */
export function renderOcClient(requestVersion: string, baseUrl: string, omitHref: boolean): Record<string, unknown> {
  resolved(requestVersion);
  const body: Record<string, unknown> = omitHref ? {} : { href: buildHref(baseUrl, OC_CLIENT, requestVersion, {}) };
  return Object.assign(body, {
    name: OC_CLIENT,
    version: VERSION,
    requestVersion,
    html: `<script src="${escapeHtml(`${baseUrl}oc-client/client.js`)}"></script>`,
    type: 'oc-component',
    renderMode: 'rendered',
    baseUrl,
  });
}

function resolved(requestVersion: string): string {
  if (resolveVersion([VERSION], requestVersion) === undefined) {
    throw new TesseraError('NOT_FOUND', `Component "${OC_CLIENT}" has no version matching "${requestVersion}"; published versions: ${VERSION}.`);
  }
  return requestVersion;
}
