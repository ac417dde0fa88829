import { isIPv6 } from 'node:net';

/** Hosts that mean "every interface": not an address a client can be given. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/**
 * The registry's public base URL (decisions §11): the configured `baseUrl`, else the address it
 * listens on. Never a request's `Host` or `X-Forwarded-*`: a forged header would rewrite `href`,
 * `staticPath` and `template.src` in answers that caches keep and browsers then load.
 */
export class PublicBaseUrl {
  readonly #configured: string | undefined;
  #listening: string;

  constructor(configured: string | undefined, host: string, port: number) {
    this.#configured = configured;
    this.#listening = listenUrl(host, port);
  }

  /** Called once the server listens, with the port it got (port 0 picks one). */
  listeningOn(host: string, port: number): void {
    this.#listening = listenUrl(host, port);
  }

  get value(): string {
    return this.#configured ?? this.#listening;
  }
}

/** `http://<host>:<port>/`; listening on every interface gives the loopback address. */
export function listenUrl(host: string, port: number): string {
  const name = WILDCARD_HOSTS.has(host) ? '127.0.0.1' : host === 'localhost' ? '127.0.0.1' : host;
  return `http://${isIPv6(name) ? `[${name}]` : name}:${port}/`;
}
