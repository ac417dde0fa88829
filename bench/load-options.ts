/** What one load is asked to do, and what it measured: shared by the load generators and the rounds that run them. */

/** wrk (C, when installed) or autocannon (Node, a dependency: always there). */
export type LoadGeneratorName = 'wrk' | 'autocannon';

export interface LoadOptions {
  generator: LoadGeneratorName;
  url: string;
  connections: number;
  durationSeconds: number;
  /** A fixed number of requests instead of a duration (autocannon only). */
  amount?: number;
  method: 'GET' | 'POST';
  /** A JSON request body (sent with `Content-Type: application/json`). */
  body?: string;
  /** The server's process: the CPU it and its descendants spend during the load is measured. */
  serverPid?: number;
}

export interface LoadResult {
  /** Requests answered over the measured time. */
  requestsPerSecond: number;
  /** The measured time. */
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest answer. */
  maxMs: number;
  requests: number;
  /** Connection errors, timeouts and non-2xx answers together. */
  failures: number;
  /** CPU seconds the server's process (own) and its descendants (descendants) spent during the load. */
  cpuSeconds?: { own: number; descendants: number };
  /** The most resident memory the server's process and its descendants held together during the load. */
  peakRssBytes?: number;
}
