import type ivm from 'isolated-vm';
import { workBegan, workEnded } from './at-work-interval';
import { latestRss, WATCH_EVERY_MS } from './memory-watchdog';
import { within } from './execution-timers';

/** CPU time an isolate may spend between two idle checks without any execution in it (GC and settling). */
const IDLE_CPU_NS = 20_000_000n;
/** How long a heap reading waits for a busy isolate before the previous reading stands in. */
const HEAP_READING_WAIT_MS = 50;

/** Starts and ends of work of the host's isolates, counted: who was at work beside whom (the memory watchdog asks). */
let workTick = 0;

/**
 * What is read of one isolate, for the memory watchdog, the idle check, the fronts' routing and its
 * tenant's CPU seconds: when its work began and how the host grew since, its heap, its CPU time,
 * whether its own tenant's executions ran in it.
 */
export class IsolateReadings {
  readonly #isolate: ivm.Isolate;
  /** Told the CPU time (ns) the isolate spent since it was last told (its tenant's CPU seconds). */
  readonly #onCpu: (ns: bigint) => void;
  #cpuTold = 0n;
  /** Calls into the isolate and builds of its versions under way: while any is, its thread may be running code. */
  #work = 0;
  /** Since when (performance.now()) work has been under way without a break. */
  #busySince: number | undefined;
  /** Calls into the isolate under way (builds apart), and since when without a break. */
  #calls = 0;
  #callingSince: number | undefined;
  /** The host's resident memory when that began, or when the watchdog last excused it what the host grew. */
  #busyFromRss = 0;
  #busyTick = 0;
  #heapBytes = 0;
  /** Its heap as last read before its current or last work began. */
  #heapAtWork = 0;
  /** Executions of its own tenant's requests running, and when one last started or ended. */
  #ownRunning = 0;
  #ownTick = 0;
  /** The isolate's CPU time at the last idle check, or when it last had nothing left to run (no execution, no build). */
  #idleCpu: bigint | undefined;
  /** Whether the last idle check found CPU time spent. */
  #spentAtLastCheck = false;

  constructor(isolate: ivm.Isolate, onCpu: (ns: bigint) => void) {
    this.#isolate = isolate;
    this.#onCpu = onCpu;
  }

  workStarted(): void {
    if (this.#work++ > 0) return;
    workBegan();
    this.#busySince = performance.now();
    this.#busyFromRss = latestRss();
    this.#busyTick = ++workTick;
    this.#heapAtWork = this.#heapBytes;
  }

  workEnded(): void {
    if (--this.#work > 0) return;
    workEnded();
    this.#busySince = undefined;
  }

  /** A call into the isolate began: work, and what the fronts' routing calls busy once it lasts. */
  callStarted(): void {
    this.workStarted();
    if (this.#calls++ === 0) this.#callingSince = performance.now();
  }

  callEnded(): void {
    if (--this.#calls === 0) this.#callingSince = undefined;
    this.workEnded();
  }

  /** Whether a call into it or a build is under way: its thread may be running code. */
  get working(): boolean {
    return this.#work > 0;
  }

  /** An execution of its own tenant's requests started, or ended (those of another tenant's requests are not counted). */
  ownStarted(): void {
    this.#ownRunning++;
    this.#ownTick = ++workTick;
  }

  ownEnded(): void {
    this.#ownRunning--;
    this.#ownTick = ++workTick;
  }

  /** It has nothing left to run from here: CPU time it spends from now is code outliving its answer. */
  markIdle(): void {
    this.#idleCpu = this.#isolate.isDisposed ? undefined : this.#isolate.cpuTime;
    this.#spentAtLastCheck = false;
  }

  /**
   * Whether it spent CPU time since each of the last two checks (the first counted from when it was
   * marked idle); the check starts again from now. One check is not enough: isolated-vm counts a task
   * still under way by the wall clock (on Linux), so a short one of V8's own (a collection, a heap
   * reading) caught under way on a busy machine, its thread waiting for a CPU, reads as tens of
   * milliseconds; code that runs on spends at every check.
   */
  ranWhileIdle(): boolean {
    const cpu = this.#isolate.cpuTime;
    const spent = this.#idleCpu !== undefined && cpu - this.#idleCpu > IDLE_CPU_NS;
    this.#idleCpu = cpu;
    const ran = spent && this.#spentAtLastCheck;
    this.#spentAtLastCheck = spent;
    return ran;
  }

  /**
   * How long calls into the isolate have been under way without a break (0 when none is). A build
   * is not counted: the executions that wait for it would wait for it on any host, where one sent
   * away from a host building their version went to the other, behind a loop running there.
   */
  busyFor(now: number): number {
    return this.#callingSince === undefined ? 0 : now - this.#callingSince;
  }

  /** How much the host grew since this isolate's work began without a break, once it has lasted two readings (the memory watchdog's). */
  growthWhileBusy(rss: number, now: number): number | undefined {
    if (this.#busySince === undefined || this.#isolate.isDisposed || now - this.#busySince < 2 * WATCH_EVERY_MS) return undefined;
    return rss - this.#busyFromRss;
  }

  /** Counts its growth from `rss` on, while its work goes on (the memory watchdog's). */
  excuse(rss: number): void {
    if (this.#busySince !== undefined) this.#busyFromRss = rss;
  }

  /** Its thread's CPU time (ns), as isolated-vm counts it: a task under way by the wall clock, a sleep in a plugin call included. */
  cpuNs(): bigint {
    return this.#isolate.isDisposed ? 0n : this.#isolate.cpuTime;
  }

  /** When its work without a break began, on the host's count of starts and ends of work. */
  get busyTick(): number {
    return this.#busyTick;
  }

  /**
   * Whether it ran an execution of its own tenant's requests at any time since `tick` (a count
   * `busyTick` reads): executions another tenant's request caused (nested renders of it) are that
   * tenant's doing, and never explain another isolate's growth.
   */
  workedSince(tick: number): boolean {
    return this.#ownRunning > 0 || this.#ownTick > tick;
  }

  /** How much its heap grew since its last work began (from the heap read before it, at the latest). */
  async growthSinceWork(): Promise<number> {
    return (await this.heapBytes()) - this.#heapAtWork;
  }

  /** Tells `onCpu` the CPU time spent since it was last told (nothing once disposed: that was told then). */
  tellCpu(): void {
    if (this.#isolate.isDisposed) return;
    const cpu = this.#isolate.cpuTime;
    if (cpu > this.#cpuTold) this.#onCpu(cpu - this.#cpuTold);
    this.#cpuTold = cpu;
  }

  /** Heap bytes in use (external allocations included), without waiting long on a busy isolate. */
  async heapBytes(): Promise<number> {
    if (this.#isolate.isDisposed) return 0;
    const reading = this.#isolate.getHeapStatistics().then(
      (heap) => (this.#heapBytes = heap.used_heap_size + heap.externally_allocated_size),
      () => 0,
    );
    return within(reading, HEAP_READING_WAIT_MS, () => this.#heapBytes);
  }
}
