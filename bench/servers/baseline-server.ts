/**
 * Child-process entry: the baseline, a plain fastify server answering a fixed JSON body of the
 * size the registry answered, on the same route shapes (`GET /:name`, `POST /` with a parsed body).
 */
import Fastify from 'fastify';
import { serveUntilStopped } from '../server-process';

export interface BaselineServerOptions {
  body: string;
}

async function main(): Promise<void> {
  const { body } = JSON.parse(process.argv[2]!) as BaselineServerOptions;
  const app = Fastify({ logger: false });
  app.get('/:name', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  app.post('/', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  serveUntilStopped({ type: 'ready', url: `${address}/` }, () => app.close());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
