import { isIPv6 } from 'node:net';
import os from 'node:os';

/** Hosts that mean "every interface": no other replica can reach this one there. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** `internalAddress: "interface"`: the address of the machine's (the container's) own network interface. */
export const INTERFACE = 'interface';

/**
 * The base URL other replicas reach this one at (`http://10.0.3.7:3030/`), or undefined when there
 * is none to announce: `internalAddress` as configured (a host, `host:port` or a URL; the listening
 * port when it names none; `interface`: the first address of the machine's network interfaces that
 * is not a loopback one), else the listening address when it is a concrete one.
 */
export function internalAddressOf(configured: string | undefined, host: string, port: number): string | undefined {
  if (configured === undefined) return WILDCARD_HOSTS.has(host) ? undefined : baseUrl('http:', host === 'localhost' ? '127.0.0.1' : host, port);
  if (configured === INTERFACE) {
    const address = interfaceAddress();
    return address === undefined ? undefined : baseUrl('http:', address, port);
  }
  const url = /^https?:\/\//.test(configured) ? configured : isIPv6(configured) ? `http://[${configured}]` : `http://${configured}`;
  const parsed = new URL(url);
  return baseUrl(parsed.protocol, parsed.hostname, parsed.port === '' && !/:\d+\/?$/.test(url) ? port : Number(parsed.port || defaultPort(parsed.protocol)));
}

const defaultPort = (protocol: string): number => (protocol === 'https:' ? 443 : 80);

function baseUrl(protocol: string, host: string, port: number): string {
  const name = isIPv6(host) ? `[${host}]` : host;
  return `${protocol}//${name}:${port}/`;
}

/** The machine's first IPv4 address that is not a loopback one, else its first such IPv6 address. */
function interfaceAddress(): string | undefined {
  const addresses = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []).filter((info) => !info.internal && !info.address.startsWith('fe80:'));
  return (addresses.find((info) => info.family === 'IPv4') ?? addresses[0])?.address;
}
