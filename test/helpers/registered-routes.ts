import type { FastifyInstance } from 'fastify';

/**
 * Every route an app has registered, as `METHOD path` (`GET /:name/:version`), read from fastify's
 * own listing (`printRoutes`): a tree whose labels, joined from the root down, are the paths, each
 * node naming the methods that end there.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    const label = node[2] === '(empty root node)' ? '' : node[2]!;
    prefixes.length = depth;
    prefixes.push(label);
    for (const method of node[3]?.split(', ') ?? []) routes.push(`${method} ${prefixes.join('')}`);
  }
  return routes.sort();
}
