import type { FastifyRequest } from 'fastify';
import type { RenderMode } from '../pipeline/render-mode';

/** `q=0` (or 0.0…): the client says it does NOT accept the type. */
const NOT_ACCEPTABLE = /;\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:;|$)/i;

/** The media types of an `Accept` header that the client accepts, lower-cased and without parameters. */
export function acceptedTypes(request: FastifyRequest): string[] {
  const accept = request.headers.accept;
  if (!accept) return [];
  const types: string[] = [];
  for (const part of accept.split(',')) {
    const semicolon = part.indexOf(';');
    if (semicolon === -1) types.push(part.trim().toLowerCase());
    else if (!NOT_ACCEPTABLE.test(part)) types.push(part.slice(0, semicolon).trim().toLowerCase());
  }
  return types;
}

/** Render mode from `Accept` (decisions §1). */
export function renderModeOf(request: FastifyRequest): RenderMode {
  const types = acceptedTypes(request);
  if (types.includes('application/vnd.oc.unrendered+json')) return 'unrendered';
  if (types.includes('application/vnd.oc.info+json')) return 'info';
  return 'rendered';
}

export const wantsHtml = (request: FastifyRequest): boolean => acceptedTypes(request).includes('text/html');

/** Template types an oc-client says it renders; undefined when the caller is not an oc-client. */
export function clientTemplatesOf(request: FastifyRequest): string[] | undefined {
  if (!String(request.headers['user-agent'] ?? '').includes('oc-client-')) return undefined;
  const header = request.headers['templates'];
  if (typeof header !== 'string') return [];
  return header.split(';').map((entry) => entry.split(',')[0]!.trim());
}
