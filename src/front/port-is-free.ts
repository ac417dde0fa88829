import net from 'node:net';

/**
 * Fails with EADDRINUSE when something already listens on the port. Front threads share their port
 * with SO_REUSEPORT, which Linux also grants to any other process of the same user that asks for it:
 * a second registry started on a taken port would otherwise listen beside the first and take half
 * of its connections. A plain listen (without the option) is refused by any socket on the port.
 */
export function assertPortIsFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
