import { ERRORS, type ErrorCode } from '../../errors/errors';

/** The shared schema's id: route schemas refer to it as `ErrorBody#`. */
export const ERROR_BODY_ID = 'ErrorBody';

/** The body of every error the registry answers (decisions §2), as `error-body.ts` builds it. */
export const ERROR_BODY_SCHEMA = {
  $id: ERROR_BODY_ID,
  type: 'object',
  description: 'Every failure: a code from the Errors table of the README, a readable sentence, and what was asked for.',
  required: ['code', 'error', 'name', 'requestVersion'],
  properties: {
    code: { type: 'string', enum: Object.keys(ERRORS) },
    error: { type: 'string', description: 'One readable sentence.' },
    name: { type: 'string', description: 'The component asked for; empty when the request names none.' },
    requestVersion: { type: 'string', description: 'The version expression asked for; empty when none.' },
    details: { type: 'object', additionalProperties: true, description: 'Structured facts of some codes, e.g. `parameters` of NOT_VALID_REQUEST.' },
    stack: { type: 'string', description: 'Development registries only.' },
  },
} as const;

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
  return Object.fromEntries([...byStatus].map(([status, lines]) => [String(status), { description: lines.join(' '), $ref: `${ERROR_BODY_ID}#` }]));
}
