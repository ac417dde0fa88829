import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAdminToken } from '../../config/admin-token';
import { TesseraError } from '../../errors/errors';
import { publisherOf } from '../../publish/tenant-tokens';
import { parseTailFilter, withinScope } from '../../tail/tail-filter';
import { PeerFanIn } from '../../tail/peer-fan-in';
import { TailSubscription } from '../../tail/tail-subscription';
import { EVERY_TENANT } from '../../tail/tail-views';
import { REQUEST_ID_HEADER } from '../request-id';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';

type TailQuery = Record<string, unknown>;

/** The query is read by parseTailFilter (its refusals name the parameter); the schema is the document's only. */
const readByTheHandler = () => () => true;

const SCHEMA = {
  summary: "Watch a tenant's executions live",
  description:
    "Server-sent events, one `execution` event per execution of the tenant's components on every replica over the same storage: its outcome, duration, CPU time, " +
    'trace id, console lines and uncaught exception; another tenant\'s component rendered inside one of them as its outcome alone. ' +
    "`replica` tells that another replica's part joined, left or was refused; `dropped` how many events a slow reader lost; `end` why the stream ended. With one of the tenant's publish tokens, or the " +
    "administrator's (every tenant's). See docs/guides/authors/watching-executions.md.",
  tags: ['Operations'],
  security: [{ publishToken: [] }, { adminToken: [] }],
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pattern: { type: 'string', description: "Component names, `*` matching any run of characters (`shop-*`); within the token's own patterns." },
      outcome: { type: 'string', description: '`ok`, `error`, or error codes, comma-separated.' },
      status: { type: 'string', description: 'HTTP statuses (`500`) or classes (`5xx`), comma-separated.' },
      sample: { type: 'string', description: 'The share of matching executions sent, greater than 0 and at most 1.' },
      local: { type: 'string', enum: ['true', 'false'], description: "`true`: this replica's executions only (what a replica asks of its peers for a tail it holds)." },
    },
  },
  response: {
    200: { description: 'A stream of server-sent events (`open`, `execution`, `replica`, `dropped`, `end`).', content: { 'text/event-stream': { schema: { type: 'string' } } } },
    ...errorResponses('NOT_VALID_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'TOO_MANY_TAILS', 'NOT_READY'),
  },
} as const;

/** Who a tail's token speaks for: the tenant whose executions it sees and its name patterns, or the administrator. */
interface Watcher {
  watcher: string;
  scope: readonly string[] | undefined;
  stillAllowed: () => boolean;
}

/**
 * `GET /~tail` (decisions §16): a live tail of one tenant's executions, as server-sent events:
 * this replica's, and its peers' gathered through a stream to each (src/tail/peer-fan-in.ts).
 * Every refusal is coded, before the stream opens.
 */
export function registerTail(app: FastifyInstance, services: RegistryServices): void {
  const { config, tails, tailMetrics, readiness, peerTails } = services;
  readiness.onDrain(() => tails.endAll());
  app.addHook('preClose', (done) => {
    tails.endAll();
    done();
  });
  app.get('/~tail', { schema: SCHEMA, validatorCompiler: readByTheHandler }, async (request: FastifyRequest<{ Querystring: TailQuery }>, reply: FastifyReply) => {
    const { watcher, scope, stillAllowed } = watcherOf(request.headers.authorization, services);
    const filter = parseTailFilter(request.query);
    if (scope !== undefined && filter.pattern !== undefined && !withinScope(filter.pattern, scope)) {
      throw new TesseraError('FORBIDDEN', `Tenant "${watcher}" may not watch "${filter.pattern}": its components are named ${scope.join(', ')}.`, {
        details: { pattern: filter.pattern, allowed: scope },
      });
    }
    if (readiness.draining) throw new TesseraError('NOT_READY', 'This registry is draining; connect again to reach another replica.');
    let ended = false;
    // The other replicas' parts of the tail, asked with the reader's own token.
    const fanIn =
      filter.local || !peerTails.enabled
        ? undefined
        : new PeerFanIn({ query: peerQuery(request.query), authorization: request.headers.authorization!, send: (chunk) => subscription.relay(chunk) });
    const subscription = new TailSubscription({
      watcher,
      filter,
      sink: reply.raw,
      maxBufferChars: config.limits.tailBufferBytes,
      stillAllowed,
      dropped: (count) => tailMetrics.dropped(watcher, count),
      ended: () => {
        ended = true;
        if (fanIn) {
          peerTails.remove(fanIn);
          fanIn.close();
        }
        tails.close(subscription);
        tailMetrics.closed(watcher);
      },
    });
    if (!(await tails.open(subscription))) {
      const limit = config.limits.tailsPerTenant;
      const who = watcher === EVERY_TENANT ? 'The administrator has' : `Tenant "${watcher}" has`;
      throw new TesseraError('TOO_MANY_TAILS', `${who} ${limit} tails open on this replica, the most allowed; close one first.`, { details: { limit } });
    }
    tailMetrics.opened(watcher);
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      [REQUEST_ID_HEADER]: request.id,
    });
    reply.raw.on('close', () => subscription.closed());
    if (reply.raw.destroyed) subscription.closed();
    else if (!ended) {
      subscription.opened({ tenant: watcher, pattern: filter.pattern ?? null, replica: services.publicBaseUrl.value });
      if (fanIn) peerTails.add(fanIn);
    }
  });
}

/** The tail's own filters, for its peers, asking each for its own executions only. */
function peerQuery(query: TailQuery): string {
  const params = new URLSearchParams(query as Record<string, string>);
  params.set('local', 'true');
  return params.toString();
}

function watcherOf(authorization: string | undefined, services: RegistryServices): Watcher {
  const { config, tenants } = services;
  if (authorization === undefined) {
    throw new TesseraError('UNAUTHORIZED', 'A tail needs a token: send "Authorization: Bearer <token>" with one of your tenant\'s publish tokens.');
  }
  if (isAdminToken(authorization, config.adminTokenSha256)) return { watcher: EVERY_TENANT, scope: undefined, stillAllowed: () => true };
  const publisher = publisherOf(authorization, config.publishTokens, tenants);
  if (!publisher) throw new TesseraError('UNAUTHORIZED', 'The token is neither a live publish token of a tenant nor the administrator\'s.');
  const { tenant } = publisher;
  return {
    watcher: tenant,
    scope: publisher.components,
    // A stored token is live until revoked (or its tenant removed); a configured one, for the life of the process.
    stillAllowed: () => publisherOf(authorization, config.publishTokens, tenants)?.tenant === tenant,
  };
}
