import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with each request. */
export type ProxyMode = { kind: 'pass' } | { kind: 'fail'; status: number } | { kind: 'stall' };

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface S3FaultProxy {
  /** `http://127.0.0.1:<port>`: use it as the registry's AWS_ENDPOINT_URL. */
  endpoint: string;
  mode: ProxyMode;
}

/**
 * A real HTTP proxy on loopback in front of the S3 server, that can make the store fail on
 * purpose: answer every request with an error status, or never answer. With
 * `enforceIfNoneMatch` it also refuses a `PUT` with `If-None-Match: *` on a key that exists, as
 * AWS S3 does (412 PreconditionFailed), for stores that ignore the condition; the check and the
 * write of one key are serialized, so the refusal is exact.
 */
export async function startS3FaultProxy(t: Teardown, target: string, options: { enforceIfNoneMatch?: boolean } = {}): Promise<S3FaultProxy> {
  const upstream = new URL(target);
  const proxy: S3FaultProxy = { endpoint: '', mode: { kind: 'pass' } };
  const stalled = new Set<http.ServerResponse>();
  let conditionalWrites = Promise.resolve();

  const forward = (request: http.IncomingMessage, response: http.ServerResponse, body: Buffer): Promise<void> =>
    new Promise((resolve) => {
      const outgoing = http.request(
        { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          answer.on('end', resolve);
        },
      );
      outgoing.on('error', () => {
        response.destroy();
        resolve();
      });
      outgoing.end(body);
    });

  const exists = (path: string): Promise<boolean> =>
    new Promise((resolve) => {
      const head = http.request({ host: upstream.hostname, port: upstream.port, method: 'HEAD', path }, (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200);
      });
      head.on('error', () => resolve(false));
      head.end();
    });

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const mode = proxy.mode;
      if (mode.kind === 'stall') {
        stalled.add(response);
        return;
      }
      if (mode.kind === 'fail') {
        response.writeHead(mode.status, { 'content-type': 'application/xml' });
        response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>Injected failure</Message></Error>`);
        return;
      }
      if (options.enforceIfNoneMatch && request.method === 'PUT' && request.headers['if-none-match'] === '*') {
        const path = request.url!.split('?')[0]!;
        conditionalWrites = conditionalWrites.then(async () => {
          if (await exists(path)) {
            response.writeHead(412, { 'content-type': 'application/xml' });
            response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>`);
            return;
          }
          await forward(request, response, body);
        });
        return;
      }
      void forward(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(async () => {
    for (const response of stalled) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return proxy;
}
