import { errorResponses } from './error-responses';

const ANSWER = (description: string, extra: Record<string, unknown> = {}) => ({
  200: {
    description,
    type: 'object',
    required: ['ok', 'name', 'version', 'state'],
    properties: { ok: { type: 'boolean' }, name: { type: 'string' }, version: { type: 'string' }, state: { type: 'string' }, ...extra },
  },
});

/** `DELETE /:name/:version`, as the OpenAPI document describes it. */
export const UNPUBLISH_DOC = {
  summary: 'Unpublish a version',
  description:
    'The tenant whose token published the version, within `unpublishWindowHours` of the publish, or the administrator at any time: the version then answers `410 GONE` and leaves version resolution on every replica within one poll. Its number is never published again.',
  tags: ['Lifecycle'],
  security: [{ publishToken: [] }],
  response: { ...ANSWER('Unpublished.'), ...errorResponses('UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'GONE') },
};

/** `POST` and `DELETE /:name/:version/~deprecate`, as the OpenAPI document describes them. */
export const deprecateDoc = (method: 'POST' | 'DELETE') => ({
  summary: method === 'POST' ? 'Deprecate a version' : 'Take a deprecation back',
  description:
    method === 'POST'
      ? 'With `{"message": "…"}`, by the publishing tenant or the administrator: `~info`, the web UI and a `Deprecation` header on its renders show it.'
      : 'The version is no longer deprecated.',
  tags: ['Lifecycle'],
  security: [{ publishToken: [] }],
  response: {
    ...ANSWER(method === 'POST' ? 'Deprecated.' : 'No longer deprecated.', { deprecation: { type: 'object', additionalProperties: true } }),
    ...errorResponses('NOT_VALID_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'GONE'),
  },
});
