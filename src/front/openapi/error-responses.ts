import { ERRORS, type ErrorCode } from '../../errors/errors';

/** Where route schemas find the error body: a component of the document, not a schema fastify compiles. */
export const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

/** The body of every error the registry answers (decisions §2), as `error-body.ts` builds it. */
export const ERROR_BODY_SCHEMA = {
  type: 'object' as const,
  description: 'Every failure: a code from the table of docs/reference/errors.md, a readable sentence, and what was asked for.',
  required: ['code', 'error', 'name', 'requestVersion'],
  properties: {
    code: { type: 'string' as const, enum: Object.keys(ERRORS) },
    error: { type: 'string' as const, description: 'One readable sentence.' },
    name: { type: 'string' as const, description: 'The component asked for; empty when the request names none.' },
    requestVersion: { type: 'string' as const, description: 'The version expression asked for; empty when none.' },
    details: { type: 'object' as const, additionalProperties: true, description: 'Structured facts of some codes, e.g. `parameters` of NOT_VALID_REQUEST.' },
    stack: { type: 'string' as const, description: 'Development registries only.' },
  },
};

/**
 * Responses for the failures a route can answer, one per status, each the §2 body and described
 * by its codes with their sentences from the errors table, so the document follows the table.
 */
export function errorResponses(...codes: ErrorCode[]): Record<string, { description: string; $ref: string }> {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const { status, message } = ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\`: ${message}`]);
  }
  return Object.fromEntries([...byStatus].map(([status, lines]) => [String(status), { description: lines.join(' '), $ref: ERROR_BODY_REF }]));
}
