import type { FastifySchema } from 'fastify';

/**
 * What each path parameter means, on every route that has it. Routes declare no `params` schema: a
 * path segment is always a string, so fastify would only spend start-up time compiling validators
 * that can refuse nothing. The document gets them from here instead.
 */
const PATH_PARAMETERS: Record<string, { type: 'string'; description: string; examples?: string[] }> = {
  name: { type: 'string', description: 'The component name.' },
  version: { type: 'string', description: 'A version or version expression: `1.2.3`, `~1.2.3`, `^1.2.3`, `1`, `1.2`, `1.x`, `latest`.' },
  action: { type: 'string', description: 'The name of an action the component registers.' },
  file: { type: 'string', description: 'A runtime file.', examples: ['react.js', 'handlebars.js'] },
  '*': { type: 'string', description: "The file's path in the package, e.g. `template.js` or `public/banner.css`." },
};

/** A route's schema with its path parameters described, unless it describes them itself. */
export function withPathParameters(schema: FastifySchema | undefined, url: string): FastifySchema {
  const names = [...url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*');
  if (names.length === 0 || schema?.params) return schema ?? {};
  const properties = Object.fromEntries(names.map((name) => [name, PATH_PARAMETERS[name] ?? { type: 'string' }]));
  return { ...schema, params: { type: 'object', required: names, properties } };
}
