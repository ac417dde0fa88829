import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { RegistryConfig } from '../config/config';
import { TesseraError } from '../errors/errors';
import { corsHeadersBeforeRouting } from './cors';
import { errorReply } from './error-body';

/**
 * Failures fastify and Node's HTTP parser answer before any route runs, answered with the coded
 * body of decisions §2 like every other error, instead of their own uncoded bodies.
 */

/** A URL the router cannot read: a malformed percent-encoding, a path segment over the length limit. */
export function frameworkErrorAnswer(config: RegistryConfig) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const problem = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path segment is over the length limit' : 'it has a malformed percent-encoding';
    const { status, body } = errorReply(new TesseraError('NOT_VALID_REQUEST', `The request URL is not valid: ${problem}.`), '', '');
    void reply.code(status).headers(corsHeadersBeforeRouting(config, request)).send(body);
  };
}

/** A request Node's parser refused (headers over the size limit, not HTTP, not all in within `headersTimeout`): one answer, then the connection closes. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const coded =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new TesseraError('PAYLOAD_TOO_LARGE', 'The request URL and headers are over the size limit.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new TesseraError('REQUEST_TIMEOUT', 'The request headers did not all arrive within the time limit (limits.requestHeadersTimeoutMs).')
        : new TesseraError('NOT_VALID_REQUEST', 'The request is not valid HTTP.');
  const { status, body } = errorReply(coded, '', '');
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  }
  socket.destroy();
}

const REASONS: Record<number, string> = { 408: 'Request Timeout', 413: 'Payload Too Large' };

const PLACES: Record<string, string> = { querystring: 'Query parameter', params: 'Path parameter', headers: 'Header' };
const SENTENCES: Record<string, string> = { missing: 'is missing', 'given more than once': 'must be given once' };

/**
 * A query string, path or header refused by a route's schema: NOT_VALID_REQUEST naming each value
 * as a component parameter's refusal does (`details.parameters`); undefined for a body, whose
 * failures are POST_BODY_NOT_VALID. `query` tells a value given twice from one of the wrong type.
 */
export function requestValidationError(error: FastifyError, query: unknown): TesseraError | undefined {
  const place = error.validationContext && PLACES[error.validationContext];
  if (!error.validation || !place) return undefined;
  const problems = error.validation.map((failure) => {
    const missing = (failure.params as { missingProperty?: string }).missingProperty;
    if (missing !== undefined) return { name: missing, problem: 'missing' };
    const name = failure.instancePath.replace(/^\//, '');
    const repeated = error.validationContext === 'querystring' && Array.isArray((query as Record<string, unknown> | undefined)?.[name]);
    return { name, problem: repeated ? 'given more than once' : (failure.message ?? 'not valid') };
  });
  const sentences = problems.map(({ name, problem }) => `${place} "${name}" ${SENTENCES[problem] ?? problem}.`);
  return new TesseraError('NOT_VALID_REQUEST', sentences.join(' '), { details: { parameters: problems } });
}
