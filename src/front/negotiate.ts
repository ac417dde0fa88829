import type { FastifyRequest } from 'fastify';
import type { RenderMode } from '../pipeline/render';

/** The media types of an `Accept` header, lower-cased and without parameters. */
export function acceptedTypes(request: FastifyRequest): string[] {
  const accept = request.headers.accept;
  if (!accept) return [];
  return accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
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
