/**
 * What every registry process is started with (the front and each sandbox host):
 * - `--no-node-snapshot`: isolated-vm cannot run beside V8's startup snapshot;
 * - `--max-semi-space-size=4`: on a machine with gigabytes of memory V8 lets each heap's young
 *   generation grow to 64 MB semi-spaces, kept for good once a load has grown them. Each front
 *   thread and each host's own thread is a heap of its own: under load the registry held about
 *   200 MB more in young generations alone, where 4 MB semi-spaces cost no measurable CPU per request
 *   (bench/FINDINGS.md). The flag is the process's, so the front threads take it too; isolates set
 *   their own (isolated-vm gives a 64 MB isolate about 1.4 MB).
 */
export const NODE_FLAGS: readonly string[] = ['--no-node-snapshot', '--max-semi-space-size=4'];
