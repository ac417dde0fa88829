import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { assertMayClaim, currentOwner } from '../../names/name-owner';
import { assertNotPublished } from '../../publish/already-published';
import { mayPublish, publisherOf, type Publisher } from '../../publish/tenant-tokens';
import { malformedUploadError, noPackageError, packageTooLarge, uploadStopped } from '../../publish/upload-errors';
import { spoolUpload } from '../../publish/spool-upload';
import { UploadSlots } from '../../publish/upload-slots';
import { takeDryRun } from '../../tenants/dry-run-rate';
import { errorReply, unexpectedError } from '../error-body';
import type { RegistryServices } from '../registry-services';

type PutRequest = FastifyRequest<{ Params: { name: string; version: string }; Querystring: { dryRun?: string } }>;

/** Content types of a raw packed component; multipart uploads (OC's CLI) are parsed by @fastify/multipart. */
const TARBALL_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

/**
 * `PUT /:name/:version` (decisions §7): a tenant's token publishes a packed component inside its
 * scope. The token, scope and existing versions are checked before the body is read; the body is
 * then received whole into a temporary file (spool-upload.ts), whose path goes to the publish pool:
 * a publish thread reads it when its turn comes, unpacks, verifies and stores it (`?dryRun=true`
 * stops before storing). This event loop only routes: it counts the bytes against the limit and
 * indexes the stored version.
 */
export function registerPublish(app: FastifyInstance, services: RegistryServices): void {
  const limit = services.config.limits.publishBytes;
  const publishers = new WeakMap<FastifyRequest, Publisher>();
  const uploading = new UploadSlots(UPLOADS_PER_TENANT);

  app.register(async (scope) => {
    // Not parsed here: the stream itself is the body, read by `sendPackage`.
    scope.addContentTypeParser(TARBALL_TYPES, (_request, payload, done) => done(null, payload));
    await scope.register(multipart, { limits: { fileSize: limit, files: 1, fields: 20, parts: 21 } });

    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const coded = publishError(error, limit);
      if (coded.code === 'GENERIC_ERROR') request.log.error(error);
      // Answered before the body was read to its end (over the limit): the rest is not waited for.
      if (!request.raw.complete) reply.header('connection', 'close');
      const params = (request.params ?? {}) as { name?: string; version?: string };
      const { status, body } = errorReply(coded, params.name ?? '', params.version ?? '', services.config.development);
      return reply.code(status).send(body);
    });

    scope.put('/:name/:version', {
      bodyLimit: limit,
      async onRequest(request: PutRequest) {
        const { name, version } = request.params;
        // Configured tokens, and those in storage as of this replica's last poll (a revoked one is refused).
        const token = publisherOf(request.headers.authorization, services.config.publishTokens, services.tenants);
        if (!token) throw new TesseraError('UNAUTHORIZED', 'A valid publish token is required: send "Authorization: Bearer <token>".');
        if (!mayPublish(token, name)) {
          throw new TesseraError('FORBIDDEN', `Tenant "${token.tenant}" may not publish "${name}"; its token covers: ${token.components.join(', ')}.`);
        }
        // Refused early when another tenant owns the name; the publish thread decides again, in storage, once the body is complete.
        assertMayClaim(await currentOwner(services.storage, name, services.config.tenants.default), token.tenant, name);
        await assertNotPublished(services, name, version);
        publishers.set(request, token);
      },
      handler: async (request: PutRequest, reply) => {
        const { name, version } = request.params;
        const dryRun = request.query.dryRun === 'true';
        const isMultipart = request.isMultipart();
        const body = isMultipart ? Readable.from(uploadedFile(request, limit)) : request.body;
        // JSON and text bodies are parsed by fastify's own parsers: they are no package.
        if (!(body instanceof Readable)) throw noPackageError();
        // A multipart body is more than its file: the file itself is held to the limit as it arrives.
        if (!isMultipart && Number(request.headers['content-length']) > limit) throw packageTooLarge(limit);
        const { tenant, tokenId, stored, quotas } = publishers.get(request)!;
        if (dryRun) await takeDryRun(services.storage, tenant, services.config.limits.dryRunsPerHour);
        await uploading.take(tenant);
        try {
          const spooled = await spoolUpload(body, limit).catch((error: unknown) => {
            // Answered already (408: the body went silent, stalled-bodies.ts): how its end failed is nobody's to hear.
            if (reply.sent) return undefined;
            throw error;
          });
          if (!spooled) return reply;
          // A client that closes the connection before its answer leaves nobody to tell: a publish still waiting for a thread is dropped.
          const left = new AbortController();
          const leave = (): void => {
            if (!reply.raw.writableEnded) left.abort();
          };
          reply.raw.once('close', leave);
          try {
            await services.publish({ name, version, tenant, tokenId, storedToken: stored, quotas, client: request.ip, dryRun }, spooled.file, left.signal);
          } finally {
            reply.raw.off('close', leave);
            await spooled.remove();
          }
        } finally {
          uploading.release(tenant);
        }
        if (dryRun) return reply.code(200).send({ ok: true, name, version, dryRun: true });
        await services.catalog.add(name, version);
        await services.published(name, version);
        return reply.code(201).send({ ok: true, name, version });
      },
    });
  });
}

/** Uploads one tenant may have arriving at once, each held to the publish limit on disk. */
const UPLOADS_PER_TENANT = 4;

/** The bytes of the one file of a multipart upload; other fields are ignored. Fails with coded errors only. */
async function* uploadedFile(request: FastifyRequest, limit: number): AsyncGenerator<Buffer> {
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') yield* part.file;
    }
  } catch (error) {
    // Limits come coded (FST_…); the parser's own failures (a body cut short, no boundary) do not.
    if ((error as FastifyError).code !== undefined) throw publishError(error as FastifyError, limit);
    throw malformedUploadError(error instanceof Error ? error.message : String(error));
  }
}

/** Body parsing failures of this route, as coded errors that say what to send instead. */
function publishError(error: FastifyError, limit: number): TesseraError {
  if (error instanceof TesseraError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return packageTooLarge(limit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return noPackageError();
    case 'FST_MP_PREMATURE_CLOSE':
      return uploadStopped();
    // A JSON body, empty or one fastify could not parse: no package either.
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return noPackageError();
    default:
      return unexpectedError(error);
  }
}
