import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { renderBatch, type BatchOutcome } from '../../pipeline/render-batch';
import { applyComponentHeaders } from '../apply-component-headers';
import { BATCH_BODY_SCHEMA, strictBatchValidator, type BatchBody } from '../batch-body-schema';
import { onAbandoned } from '../on-abandoned';
import { errorReply } from '../error-body';
import { clientTemplatesOf, renderModeOf } from '../negotiate';
import { INFO_ONLY, RENDERED, UNRENDERED } from '../openapi/component-shapes';
import { ERROR_BODY_REF, errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';
import { OC_CLIENT, renderOcClient } from './oc-client-component';

const NOT_JSON = 'The batch body must be a JSON object, sent with Content-Type: application/json.';

interface BatchItem {
  status: number;
  response: Record<string, unknown>;
  headers?: Record<string, string>;
}

const SCHEMA = {
  summary: 'Render several components',
  description:
    'Renders every component of the body at once, each failing on its own: always 200, with one item per component in request order. ' +
    "An item's own parameters override the global ones. `Accept: application/vnd.oc.unrendered+json` asks for every item unrendered.",
  tags: ['Rendering'],
  body: BATCH_BODY_SCHEMA,
  response: {
    200: {
      description: "One item per component: its status and answer, or its status and error body; `headers`, those its server logic set.",
      type: 'array',
      items: {
        type: 'object',
        required: ['status', 'response'],
        properties: {
          status: { type: 'integer' },
          response: { anyOf: [RENDERED, UNRENDERED, INFO_ONLY, { $ref: ERROR_BODY_REF }] },
          headers: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
    ...errorResponses('POST_BODY_NOT_VALID', 'PAYLOAD_TOO_LARGE'),
  },
} as const;

/**
 * `POST /` (decisions §5): always 200 with one `{status, response, headers?}` per component, in
 * request order. Items render concurrently and fail on their own.
 */
export function registerBatch(app: FastifyInstance, services: RegistryServices): void {
  const { maxBatchSize } = services.config.limits;
  app.post(
    '/',
    {
      schema: SCHEMA,
      validatorCompiler: strictBatchValidator,
      // A body read as text (any content type but JSON's) would only be told "must be object". A
      // callback, not an async hook: every batch runs it, and it needs no promise.
      preValidation: (request: FastifyRequest<{ Body: BatchBody }>, _reply: FastifyReply, done: (error?: Error) => void) => {
        done(typeof (request.body as unknown) === 'string' ? new TesseraError('POST_BODY_NOT_VALID', NOT_JSON) : undefined);
      },
    },
    async (request: FastifyRequest<{ Body: BatchBody }>, reply: FastifyReply) => {
      const { components, parameters = {}, omitHref = false } = request.body;
      if (components.length > maxBatchSize) {
        throw new TesseraError('POST_BODY_NOT_VALID', `The batch asks for ${components.length} components; this registry accepts at most ${maxBatchSize}.`);
      }
      const mode = renderModeOf(request);
      const baseUrl = services.publicBaseUrl.value;
      const clientTemplates = clientTemplatesOf(request);
      const abandoned = onAbandoned(reply);
      // `oc-client` is the registry's own component, answered here; every other item is rendered by the pipeline.
      const rendered = await renderBatch(
        services.pipeline,
        components.filter((component) => component.name !== OC_CLIENT).map((component) => ({
          name: component.name,
          version: component.version ?? '',
          parameters: { ...parameters, ...component.parameters },
          headers: request.headers,
          mode,
          depth: 0,
          baseUrl,
          omitHref,
          clientTemplates,
          requestId: request.id,
          onAbandoned: abandoned,
        })),
        // One HTTP answer holds every item: together they bring at most what one request's nested answers may.
        services.config.limits.maxNestedBytesPerRequest,
      );
      let next = 0;
      const outcomes = components.map((component) =>
        component.name === OC_CLIENT ? ocClientOutcome(component.version ?? '', baseUrl, omitHref) : rendered[next++]!,
      );
      // Headers and cookies reach the HTTP response only when they cannot belong to another item.
      const only = outcomes.length === 1 ? outcomes[0] : undefined;
      if (only?.ok) applyComponentHeaders(reply, only.result);
      return reply.code(200).send(outcomes.map((outcome, i) => toItem(outcome, components[i]!, services.config.development)));
    },
  );
}

function ocClientOutcome(requestVersion: string, baseUrl: string, omitHref: boolean): BatchOutcome {
  try {
    return { ok: true, result: { body: renderOcClient(requestVersion, baseUrl, omitHref), headers: {}, cookies: [] } };
  } catch (error) {
    return { ok: false, error };
  }
}

function toItem(outcome: BatchOutcome, component: BatchBody['components'][number], development: boolean): BatchItem {
  if (!outcome.ok) {
    const { status, body } = errorReply(outcome.error, component.name, component.version ?? '', development);
    return { status, response: body };
  }
  const item: BatchItem = { status: 200, response: outcome.result.body };
  if (Object.keys(outcome.result.headers).length > 0) item.headers = outcome.result.headers;
  return item;
}
