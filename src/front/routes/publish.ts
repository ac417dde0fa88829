import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { assertNotPublished, publishPackage } from '../../publish/publish-package';
import { mayPublish, tokenOf } from '../../publish/tenant-tokens';
import { malformedUploadError, noPackageError } from '../../publish/unpack-package';
import { errorReply, unexpectedError } from '../error-body';
import type { RegistryServices } from '../registry-services';

type PutRequest = FastifyRequest<{ Params: { name: string; version: string }; Querystring: { dryRun?: string } }>;

/** Content types of a raw packed component; multipart uploads (OC's CLI) are parsed by @fastify/multipart. */
const TARBALL_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

/**
 * `PUT /:name/:version` (decisions §7): a tenant's token publishes a packed component inside its
 * scope. The token, scope and existing versions are checked before the body is read; the body is
 * then unpacked, verified and stored whole (`?dryRun=true` stops before storing).
 */
export function registerPublish(app: FastifyInstance, services: RegistryServices): void {
  const limit = services.config.limits.publishBytes;
  const tenants = new WeakMap<FastifyRequest, string>();

  app.register(async (scope) => {
    scope.addContentTypeParser(TARBALL_TYPES, { parseAs: 'buffer', bodyLimit: limit }, (_request, body, done) => done(null, body));
    await scope.register(multipart, { limits: { fileSize: limit, files: 1, fields: 20, parts: 21 } });

    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const coded = publishError(error, limit);
      if (coded.code === 'GENERIC_ERROR') request.log.error(error);
      const params = (request.params ?? {}) as { name?: string; version?: string };
      const { status, body } = errorReply(coded, params.name ?? '', params.version ?? '', services.config.development);
      return reply.code(status).send(body);
    });

    scope.put('/:name/:version', {
      bodyLimit: limit,
      async onRequest(request: PutRequest) {
        const { name, version } = request.params;
        const token = tokenOf(request.headers.authorization, services.config.publishTokens);
        if (!token) throw new TesseraError('UNAUTHORIZED', 'A valid publish token is required: send "Authorization: Bearer <token>".');
        if (!mayPublish(token, name)) {
          throw new TesseraError('FORBIDDEN', `Tenant "${token.tenant}" may not publish "${name}"; its token covers: ${token.components.join(', ')}.`);
        }
        await assertNotPublished(services, name, version);
        tenants.set(request, token.tenant);
      },
      handler: async (request: PutRequest, reply) => {
        const { name, version } = request.params;
        const dryRun = request.query.dryRun === 'true';
        const tarball = request.isMultipart() ? await uploadedFile(request) : request.body;
        if (!Buffer.isBuffer(tarball)) throw noPackageError();
        await publishPackage(services, { name, version, tarball, tenant: tenants.get(request)!, dryRun });
        if (dryRun) return reply.code(200).send({ ok: true, name, version, dryRun: true });
        return reply.code(201).send({ ok: true, name, version });
      },
    });
  });
}

/** The one file of a multipart upload; other fields are ignored. */
async function uploadedFile(request: FastifyRequest): Promise<Buffer> {
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') file = await part.toBuffer();
    }
  } catch (error) {
    // Limits come coded (FST_…); the parser's own failures (a body cut short, no boundary) do not.
    if ((error as FastifyError).code !== undefined) throw error;
    throw malformedUploadError(error instanceof Error ? error.message : String(error));
  }
  return file ?? Buffer.alloc(0);
}

/** Body parsing failures of this route, as coded errors that say what to send instead. */
function publishError(error: FastifyError, limit: number): TesseraError {
  if (error instanceof TesseraError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return new TesseraError('PAYLOAD_TOO_LARGE', `The package is over the publish limit of ${limit} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return noPackageError();
    default:
      return unexpectedError(error);
  }
}
