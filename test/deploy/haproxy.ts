import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { waitForPort } from '../helpers/free-port';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** The haproxy binary from Debian's package, or undefined when it is not installed. */
export function haproxyBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  return undefined;
}

/**
 * HAProxy on 127.0.0.1:`port` in front of the replicas, checking `/readyz` every 200 ms: one
 * failed check takes a replica out, two good ones bring it back. A check's answer may take 2 s: with
 * the interval as its timeout (HAProxy's default), answers slowed by a busy machine took both
 * replicas out, and a tail opened just after the balancer served got its 503 page. A refused connection
 * is retried on another replica; nothing else is. Stopped by its pid when the test ends. A
 * connection idle for `idleSeconds` (10) is closed: a test of long streams (tails, whose keep-alive
 * comes every 15 s) gives more.
 */
export async function startHaproxy(t: Teardown, binary: string, dir: string, port: number, replicaPorts: number[], idleSeconds = 10): Promise<void> {
  const config = path.join(dir, 'haproxy.cfg');
  await writeFile(
    config,
    [
      'global',
      '  maxconn 512',
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      '  timeout check 2s',
      `  timeout client ${idleSeconds}s`,
      `  timeout server ${idleSeconds}s`,
      '  retries 3',
      '  option redispatch 1',
      // Only a refused connection is retried (nothing was sent): a request a replica dropped stays failed, so draining must prevent it.
      '  retry-on conn-failure',
      'frontend registry',
      `  bind 127.0.0.1:${port}`,
      '  default_backend replicas',
      'backend replicas',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      '  default-server inter 200ms fall 1 rise 2',
      ...replicaPorts.map((replicaPort, index) => `  server replica${index + 1} 127.0.0.1:${replicaPort} check`),
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-db', '-f', config], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
    await exited;
  });
  await waitForPort(port);
  await untilBalancerServes(port);
}

/**
 * Until a request through the balancer reaches a ready replica: HAProxy listens before its checks
 * have passed one, and a tail opened then got its own 503 page. 60 s is a busy machine's allowance,
 * not a bound.
 */
async function untilBalancerServes(port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`no replica answered 200 through the balancer within 60 s (last: ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
