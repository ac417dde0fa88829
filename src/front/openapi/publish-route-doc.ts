import { errorResponses } from './error-responses';

const TARBALL = { type: 'string', format: 'binary' } as const;

const PUBLISHED = {
  type: 'object',
  required: ['ok', 'name', 'version'],
  properties: { ok: { const: true }, name: { type: 'string' }, version: { type: 'string' }, dryRun: { const: true } },
} as const;

/**
 * The document's view of `PUT /:name/:version`. It is given here, not in the route's schema, because
 * a body schema there would have fastify validate the packed body, which the route's own parsers
 * read (a tarball, or a multipart upload).
 */
export const PUBLISH_ROUTE_DOC = {
  summary: 'Publish a component version',
  description:
    "Publishes a packed component with a tenant's token, inside the token's name patterns. Versions are immutable. " +
    'Nothing is stored before every check has passed; `?dryRun=true` runs them all and stores nothing (each tenant may ask for ' +
    '`limits.dryRunsPerHour` dry runs per hour). The body is the gzip tarball ' +
    'of the `_package` folder that `tessera package` writes, or a multipart upload of that one file.',
  tags: ['Publishing'],
  security: [{ publishToken: [] }],
  params: {
    type: 'object',
    required: ['name', 'version'],
    properties: { name: { type: 'string', description: 'The component name.' }, version: { type: 'string', description: 'An exact semantic version, e.g. `1.2.3`.' } },
  },
  querystring: { type: 'object', properties: { dryRun: { type: 'string', enum: ['true'], description: '`true` checks the package and stores nothing.' } } },
  body: {
    content: {
      'application/gzip': { schema: TARBALL },
      'application/x-gzip': { schema: TARBALL },
      'application/octet-stream': { schema: TARBALL },
      'multipart/form-data': {
        schema: { type: 'object', description: 'One file part, under any field name (OC\'s CLI sends this); other fields are ignored.', additionalProperties: TARBALL },
      },
    },
  },
  response: {
    201: { description: 'Published; this replica serves it at once.', ...PUBLISHED },
    200: { description: 'A dry run passed every check.', ...PUBLISHED },
    ...errorResponses(
      'PACKAGE_NOT_VALID',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'ALREADY_EXISTS',
      'PAYLOAD_TOO_LARGE',
      'SERVER_SCRIPT_TOO_LARGE',
      'DEPENDENCY_NOT_ALLOWED',
      'PACKAGE_TOO_COMPLEX',
      'QUOTA_EXCEEDED',
      'STORAGE_UNAVAILABLE',
      'GENERIC_ERROR',
    ),
  },
} as const;
