import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { applyComponentHeaders } from '../apply-component-headers';
import { BATCH_BODY_SCHEMA, strictBatchValidator, type BatchBody } from '../batch-body-schema';
import { errorReply } from '../error-body';
import { baseUrlOf, clientTemplatesOf, renderModeOf } from '../negotiate';
import type { RegistryServices } from '../registry-services';
import type { RenderResult } from '../../pipeline/render';

interface BatchItem {
  status: number;
  response: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * `POST /` (decisions §5): always 200 with one `{status, response, headers?}` per component, in
 * request order. Items render concurrently and fail on their own.
 */
export function registerBatch(app: FastifyInstance, services: RegistryServices): void {
  const { maxBatchSize } = services.config.limits;
  app.post(
    '/',
    { schema: { body: BATCH_BODY_SCHEMA }, validatorCompiler: strictBatchValidator },
    async (request: FastifyRequest<{ Body: BatchBody }>, reply: FastifyReply) => {
      const { components, parameters = {}, omitHref = false } = request.body;
      if (components.length > maxBatchSize) {
        throw new TesseraError('POST_BODY_NOT_VALID', `The batch asks for ${components.length} components; this registry accepts at most ${maxBatchSize}.`);
      }
      const mode = renderModeOf(request);
      const baseUrl = baseUrlOf(request, services.config);
      const clientTemplates = clientTemplatesOf(request);
      const results = await Promise.all(
        components.map(async (component): Promise<RenderResult | BatchItem> => {
          const version = component.version ?? '';
          try {
            return await services.pipeline.render({
              name: component.name,
              version,
              parameters: { ...parameters, ...component.parameters },
              headers: request.headers,
              mode,
              depth: 0,
              baseUrl,
              omitHref,
              clientTemplates,
            });
          } catch (error) {
            const { status, body } = errorReply(error, component.name, version, services.config.development);
            return { status, response: body };
          }
        }),
      );
      // Headers and cookies reach the HTTP response only when they cannot belong to another item.
      const only = results.length === 1 ? results[0] : undefined;
      if (only && 'body' in only) applyComponentHeaders(reply, only);
      return reply.code(200).send(results.map(toItem));
    },
  );
}

function toItem(result: RenderResult | BatchItem): BatchItem {
  if (!('body' in result)) return result;
  const item: BatchItem = { status: 200, response: result.body };
  if (Object.keys(result.headers).length > 0) item.headers = result.headers;
  return item;
}
