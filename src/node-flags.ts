/**
 * Node's flags of the registry's processes. On a machine with gigabytes of memory V8 lets each
 * heap's young generation grow to 64 MB semi-spaces, kept for good once a load has grown them; each
 * front thread and each host's own thread is a heap of its own: under load the registry held about
 * 150 MB more in young generations alone (bench/FINDINGS.md, "Memory under load"). Smaller
 * semi-spaces mean more scavenges: the front, which allocates the most per request, keeps 8 MB
 * (4 MB cost it about a sixth more CPU per batch); a host's own thread, 4 MB. The flag is the
 * process's, so the front threads take the front's; isolates set their own (isolated-vm gives a
 * 64 MB isolate about 1.4 MB).
 */

/** isolated-vm cannot run beside V8's startup snapshot. */
const NO_SNAPSHOT = '--no-node-snapshot';

/** The registry's process (its front threads), as `bin/tessera.js` and `npm start` start it. */
export const NODE_FLAGS: readonly string[] = [NO_SNAPSHOT, '--max-semi-space-size=8'];

/** Each sandbox host process. */
export const HOST_NODE_FLAGS: readonly string[] = [NO_SNAPSHOT, '--max-semi-space-size=4'];
