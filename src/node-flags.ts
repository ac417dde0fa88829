/**
 * Node's flags of the registry's processes. On a machine with gigabytes of memory V8 lets each
 * heap's young generation grow to 64 MB semi-spaces, kept for good once a load has grown them; each
 * front thread and each host's own thread is a heap of its own (bench/FINDINGS.md, "Memory under
 * load"). Smaller semi-spaces mean more scavenges, and more promoted: 16 MB for the front and 8 MB
 * for a host cost no CPU per request the benchmark could see and took 50 to 150 MB off the registry
 * under load, where 8 and 4 MB cost a batch about a fifth more CPU. The flag is the process's, so the
 * front threads take the front's; isolates set their own (isolated-vm gives a 64 MB isolate about 1.4 MB).
 *
 * The front's old generation: between two full collections V8 let it grow to four times what the
 * last one kept (a front thread under a batch load kept about 42 MB and grew to 155 to 188 MB before
 * the next, most of it promoted garbage), so the front process reached 450 to 510 MB after half a
 * minute of batches. `--heap-growing-percent=50` lets it grow by half instead: the front peaked at
 * 260 to 280 MB under the same load, with the same CPU per batch (bench/FINDINGS.md, "Memory under
 * load"). A host's own heap is small beside its isolates: the flag did not lower a host's memory.
 *
 * Pretenuring: under batches V8 at times judged that the objects of some of the front's allocation
 * sites outlive young collections, and made them in the old generation from then on; a request's
 * objects die within milliseconds, so the old generation filled with garbage and the front ran a
 * full collection every 200 ms (40 to 50 in 8 s, a third of a CPU on V8's helper threads, pauses
 * of 5 to 10 ms), where otherwise it ran 3 or 4. Without pretenuring, none of three runs did (bench/FINDINGS.md).
 */

/** isolated-vm cannot run beside V8's startup snapshot. */
const NO_SNAPSHOT = '--no-node-snapshot';

/** The registry's process (its front threads), as `bin/tessera.js` and `npm start` start it. */
export const NODE_FLAGS: readonly string[] = [NO_SNAPSHOT, '--max-semi-space-size=16', '--heap-growing-percent=50', '--no-allocation-site-pretenuring'];

/** Each sandbox host process. */
export const HOST_NODE_FLAGS: readonly string[] = [NO_SNAPSHOT, '--max-semi-space-size=8'];

/** The packager's reader of server entries, which evaluates a bundle in an isolate to read its definition. */
export const SERVER_READER_NODE_FLAGS: readonly string[] = [NO_SNAPSHOT];
