import http from 'node:http';
import type { RegistryConfig } from '../../src/config/config';
import { hashToken } from '../../src/publish/tenant-tokens';
import { takeServerSentEventBlocks } from '../../src/tail/server-sent-event-blocks';
import { fixture, type TenantComponent } from '../helpers/start-registry';
import { ADMIN_TOKEN, withAdmin } from '../tenants/admin-helpers';

export { ADMIN_TOKEN };
export const SHOP_TOKEN = 'shop-tail-token';
export const LABS_TOKEN = 'labs-tail-token';

/** Two tenants, `shop` (`shop-*`) and `labs` (`labs-*`), and the administrator. */
export function twoTenants(config: RegistryConfig): void {
  config.publishTokens = [
    { tenant: 'shop', sha256: hashToken(SHOP_TOKEN), components: ['shop-*'] },
    { tenant: 'labs', sha256: hashToken(LABS_TOKEN), components: ['labs-*'] },
  ];
  withAdmin(config);
}

const as = (tenant: string, dir: string, name: string): TenantComponent => ({ dir: fixture(dir), tenant, name });

/** A logger and a nester of each tenant: `shop-logger`, `shop-nester`, `labs-logger`, `labs-nester`. */
export const TWO_TENANTS_COMPONENTS: TenantComponent[] = [
  as('shop', 'tail-logger', 'shop-logger'),
  as('shop', 'tail-nester', 'shop-nester'),
  as('labs', 'tail-logger', 'labs-logger'),
  as('labs', 'tail-nester', 'labs-nester'),
];

/** The rows of a component page's table of last errors: each row's cells, as the HTML has them (times left out). */
export function lastErrorRows(page: string): string[][] {
  const table = /<table id="errors">.*?<tbody>(.*?)<\/tbody><\/table>/s.exec(page)?.[1];
  if (table === undefined) return [];
  return [...table.matchAll(/<tr>(.*?)<\/tr>/gs)].map(([, row]) => [...row!.matchAll(/<td>(.*?)<\/td>/gs)].map(([, cell]) => cell!).slice(1));
}

export interface TailEvent {
  type: string;
  data: any;
}

/** A tail as its reader sees it: the refusal, or the events as they come. */
export interface Tail {
  status: number;
  /** The refusal's body (JSON), when not 200. */
  body: any;
  headers: http.IncomingHttpHeaders;
  events: TailEvent[];
  /** Resolves with the first event from `from` on that matches. */
  waitFor(match: (event: TailEvent) => boolean, from?: number): Promise<TailEvent>;
  /** Resolves when the registry ends the stream. */
  ended: Promise<void>;
  /** Stops reading (the socket's buffers fill), and reads again. */
  pause(): void;
  resume(): void;
  close(): void;
}

/** Opens `GET /~tail` with `token` (none: no Authorization header) and the query string `query`. */
export function openTail(url: string, token: string | undefined, query = ''): Promise<Tail> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
    const request = http.get(`${url}~tail${query}`, { headers }, (response) => {
      response.setEncoding('utf8');
      const events: TailEvent[] = [];
      const waiters: Array<{ match: (event: TailEvent) => boolean; from: number; resolve: (event: TailEvent) => void }> = [];
      let text = '';
      let endedResolve: () => void = () => {};
      const ended = new Promise<void>((done) => (endedResolve = done));
      const check = (): void => {
        for (const waiter of [...waiters]) {
          const found = events.slice(waiter.from).find(waiter.match);
          if (found) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(found);
          }
        }
      };
      const tail: Tail = {
        status: response.statusCode ?? 0,
        body: undefined,
        headers: response.headers,
        events,
        waitFor: (match, from = 0) => new Promise((found) => {
          waiters.push({ match, from, resolve: found });
          check();
        }),
        ended,
        pause: () => response.pause(),
        resume: () => response.resume(),
        close: () => request.destroy(),
      };
      response.on('data', (chunk: string) => {
        text += chunk;
        if (tail.status !== 200) return;
        const taken = takeServerSentEventBlocks(text);
        text = taken.rest;
        for (const { type, data } of taken.blocks) events.push({ type, data: JSON.parse(data) });
        check();
      });
      response.on('close', () => endedResolve());
      response.on('error', () => endedResolve());
      if (tail.status === 200) {
        resolve(tail);
        return;
      }
      response.on('end', () => {
        tail.body = JSON.parse(text);
        resolve(tail);
      });
    });
    request.on('error', reject);
  });
}

/** The execution events of a tail, without what changes from run to run (time, durations, CPU time, trace ids). */
export const stable = (events: TailEvent[]): unknown[] =>
  events
    .filter((event) => event.type === 'execution')
    .map(({ data }) => {
      const { time, durationMs, cpuMs, traceId, exception, ...rest } = data;
      const kept: Record<string, unknown> = { ...rest };
      if (exception !== undefined) kept.exception = { message: exception.message, frames: exception.stack.length > 0 };
      return kept;
    });
