import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegistryConfig } from '../config/config';

/**
 * CORS (decisions §10): pages on other origins may render components, batch, read info, call
 * actions and load static files, `Access-Control-Allow-Origin` being `*` or the configured origin
 * that asked; preflight `OPTIONS` answers for those. Publishing never gets CORS headers, nor does
 * its preflight, so no page can upload from a browser.
 */
export function registerCors(app: FastifyInstance, config: RegistryConfig): void {
  const allowed: FastifyCorsOptions = {
    origin: config.cors.origins.includes('*') ? '*' : config.cors.origins,
    methods: ['GET', 'HEAD', 'POST'],
    maxAge: 600,
    // A bare OPTIONS (no Origin) is answered 204 rather than with a body outside the error table.
    strictPreflight: false,
  };
  void app.register(cors, {
    delegator: (request, callback) => callback(null, isPublishing(request) ? { origin: false } : allowed),
  });
}

/**
 * The CORS headers of an answer given before any route runs (a URL the router cannot read), where
 * the plugin's hook never ran: the same origin rule, so a page on another origin reads the coded
 * error rather than a CORS failure.
 */
export function corsHeadersBeforeRouting(config: RegistryConfig, request: FastifyRequest): Record<string, string> {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || isPublishing(request)) return {};
  if (config.cors.origins.includes('*')) return { 'access-control-allow-origin': '*' };
  return config.cors.origins.includes(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : { vary: 'Origin' };
}

function isPublishing(request: FastifyRequest): boolean {
  if (request.method === 'PUT') return true;
  const asked = request.headers['access-control-request-method'];
  return request.method === 'OPTIONS' && typeof asked === 'string' && asked.toUpperCase() === 'PUT';
}
