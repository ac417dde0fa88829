/**
 * A sandbox host: the process that runs tenant code, in isolates, for the fronts. A process is the
 * failure domain: when V8 loses an isolate (a catastrophic out-of-memory parks its thread and keeps
 * its memory until the process ends) or the process dies, its owner recycles the whole host and no
 * client connection is touched. The host's own thread never runs tenant code (every execution goes
 * through isolated-vm's thread pool), so its timers, which bound every execution, always fire.
 *
 * Started by src/sandbox/host-link.ts with the limits and a socket path as its arguments. Executions
 * come over connections to that socket, one per front thread of the registry (messages in
 * src/sandbox/protocol.ts); Node's IPC channel carries only the host's life to the front that
 * started it (its owner): `ready` once listening, pings, and the drain that ends it. Every front numbers its executions its own
 * way; the host numbers them again, so that no front can name, cancel or answer for another's.
 */
import '../src/enable-compile-cache';
import net from 'node:net';
import type { ComponentIsolate } from './component-isolate';
import { CANCELLED, ENDED, TIMEOUT_FAILURE } from './isolate-answers';
import type { BridgeForwarder } from './isolate-bridge';
import { AtWorkInterval, anyAtWork } from './at-work-interval';
import { watchMemory } from './memory-watchdog';
import { HostLease } from './host-lease';
import { WarmIsolates } from './warm-isolates';
import { framedSocket } from '../src/sandbox/framed-socket';
import { IdTable } from '../src/sandbox/id-table';
import { KnownPlans } from '../src/sandbox/leased-plans';
import { Outbox } from '../src/sandbox/outbox';
import { TENANCY_POLICY } from '../src/sandbox/tenancy-policy';
import {
  NEED_CODE,
  type BridgeCallMessage,
  type BridgeOp,
  type ExecuteMessage,
  type FrontMessage,
  type HostMessage,
  type LeaseEnd,
  type NestedRun,
  type ResultMessage,
  type SandboxLimits,
  type TailReport,
} from '../src/sandbox/protocol';

/** How often warm isolates are measured (eviction by bytes) and checked for code running while idle. */
const HOUSEKEEPING_MS = 500;
/** An isolate running code this long without a break is reported busy, so the fronts route around it (checked as often while any isolate is at work), and no leased child of its component runs here. */
const BUSY_MS = 100;

/** A front's connection to this host, or the owner's IPC channel (its control messages only). */
interface Front {
  readonly outbox: Outbox<HostMessage>;
  /** The front's execution ids running here, and the host's own id of each. */
  readonly executions: IdTable<number>;
  /** The plans of leases this front sent, which its later leases name by id. */
  readonly plans: KnownPlans;
  /** The leases of its executions running here. */
  readonly leases: Set<HostLease>;
}

/** An execution received and not yet answered: whose it is, and the isolate running it (none while its context is built). */
interface Running {
  readonly front: Front;
  /** The front's id of the execution (of a child run here: its parent's, which its own calls go under). */
  readonly id: number;
  isolate: ComponentIsolate | undefined;
  /** While its version's context is built: its deadline, which counts from its arrival, building included. */
  deadline: NodeJS.Timeout | undefined;
  /** The nested renders it may have run here (a lease of the front's). */
  readonly lease: HostLease | undefined;
  /** A child run here under its parent's lease: its answer goes to its parent, and its own calls go one level deeper. */
  readonly leased?: true;
}

const limits = JSON.parse(process.argv[2]!) as SandboxLimits;
const socketPath = process.argv[3]!;
/** The fronts connected to the socket: each hears of busy components and lost isolates. */
const fronts = new Set<Front>();
const executions = new IdTable<Running>();
const bridgeCalls = new IdTable<{ front: Front; resolve: (answer: string) => void }>();
let nextExecution = 1;
let nextCall = 1;
let draining = false;

const forward: BridgeForwarder = (local, op, payload) => {
  const running = executions.get(local);
  if (!running) return Promise.resolve(ENDED);
  const lease = op === 'render' ? running.lease : undefined;
  if (lease === undefined) return toFront(running, op, payload);
  const child = runChild(running, lease, payload);
  if (child) return child;
  // A render the lease does not cover: the lease ends first, and the first such call tells the front.
  const first = !lease.ending;
  return lease.end().then((end) => (executions.get(local) !== running ? ENDED : toFront(running, op, payload, first ? end : undefined)));
};

/** Sends an execution's bridge call to its front; answers the front's answer. */
function toFront(running: Running, op: BridgeOp, payload: string, leaseEnd?: LeaseEnd): Promise<string> {
  return new Promise((resolve) => {
    const call = nextCall++;
    bridgeCalls.set(call, { front: running.front, resolve });
    // A child run here calls under its parent's execution, one level deeper.
    const message: BridgeCallMessage = running.leased ? { t: 'bridge', call, execution: running.id, op, payload, deeper: 1 } : { t: 'bridge', call, execution: running.id, op, payload };
    if (leaseEnd) message.leaseEnd = leaseEnd;
    running.front.outbox.post(message);
  });
}

/**
 * Runs a parent's nested render here when its lease covers it and the child's version is warm (see
 * HostLease); answers undefined otherwise, and the front renders it. The child's answer goes to its
 * parent, and what it spent to the front with its parent's result.
 */
function runChild(parent: Running, lease: HostLease, payload: string): Promise<string> | undefined {
  // Busy as of now, not as last reported: the report changes at most every BUSY_MS (later on a busy
  // machine), and a child whose isolate has just finished a long run (a first build, on a busy
  // machine) would otherwise go through the front for a while after.
  const child = lease.take(payload, (plan) => (warm.isBusy(plan.component, BUSY_MS) ? undefined : warm.ready(plan.key)));
  if (!child) return undefined;
  const local = nextExecution++;
  executions.set(local, { front: parent.front, id: parent.id, isolate: child.isolate, deadline: undefined, lease: undefined, leased: true });
  lease.children.set(local, child);
  return new Promise((resolve) => {
    // A leased child is of the paying tenant's (never foreign): its caller's cancel is its own.
    child.isolate.execute(child.plan.key, child.input, local, child.timeoutMs, false, (answer) => {
      if (answer === CANCELLED) return; // its parent ended first: nothing waits for it
      executions.delete(local);
      const answered = lease.answered(child, answer);
      lease.childEnded(local);
      resolve(answered);
    });
  });
}

/** Stops the children a parent leaves running (its answer needs none of them); answers what its lease ran. */
function endLease(front: Front, lease: HostLease): NestedRun[] | undefined {
  front.leases.delete(lease);
  for (const [local, child] of lease.children) {
    executions.delete(local);
    child.isolate.cancel(local);
  }
  return lease.runs();
}

const broadcast = (message: HostMessage): void => {
  for (const front of fronts) front.outbox.post(message);
};

/** An isolate was lost here: V8 may still be running it, and only the end of this process takes its memory back. */
let lostAnIsolate = false;
const warm = new WarmIsolates(limits, forward, (tenant, keys, stillRunning) => {
  lostAnIsolate = true;
  watchdog.wake();
  broadcast(stillRunning ? { t: 'isolate-lost', tenant, keys, stillRunning } : { t: 'isolate-lost', tenant, keys });
});

/** Runs one execution: at once when its version is warm, else once its context is built. */
function execute(front: Front, message: ExecuteMessage): void {
  // Read first, whatever becomes of the execution: the front counts its plans as sent.
  const plans = message.lease && front.plans.read(message.lease);
  if (front.executions.has(message.id)) return;
  if (draining) {
    // A front that has not heard of the drain yet: it sends the execution to another host.
    front.outbox.post({ t: 'elsewhere', id: message.id });
    return;
  }
  const local = nextExecution++;
  const lease = message.lease && plans ? new HostLease(message.lease, plans, performance.now() + message.timeoutMs) : undefined;
  const running: Running = { front, id: message.id, isolate: undefined, deadline: undefined, lease };
  if (lease) front.leases.add(lease);
  executions.set(local, running);
  front.executions.set(message.id, local);
  const isolate = warm.ready(message.key);
  if (isolate) {
    run(local, running, isolate, message, message.timeoutMs);
    return;
  }
  // Its time limit counts from now, building its version included, as the front's deadline does:
  // past it the execution is answered, and the build goes on for the executions that wait on it.
  const arrived = performance.now();
  running.deadline = setTimeout(() => finish(local, running, TIMEOUT_FAILURE.json), message.timeoutMs);
  void warm.get(message.component, message.key, message.code).then((built) => {
    if (executions.get(local) !== running) return; // cancelled, or past its deadline, while its context was being built
    clearTimeout(running.deadline);
    if (built === undefined || typeof built === 'string') {
      finish(local, running, built ?? NEED_CODE);
      return;
    }
    run(local, running, built, message, message.timeoutMs - (performance.now() - arrived));
  });
}

function run(local: number, running: Running, isolate: ComponentIsolate, message: ExecuteMessage, timeoutMs: number): void {
  running.isolate = isolate;
  isolate.execute(
    message.key,
    message.input,
    local,
    timeoutMs,
    message.foreign === true,
    (answer, tail) => {
      if (answer !== CANCELLED) finish(local, running, answer, tail);
    },
    message.tail === true,
  );
}

function finish(local: number, running: Running, answer: string, tail?: TailReport): void {
  forget(local, running);
  const nested = running.lease && endLease(running.front, running.lease);
  const result: ResultMessage = nested ? { t: 'result', id: running.id, answer, nested } : { t: 'result', id: running.id, answer };
  if (tail) result.tail = tail;
  running.front.outbox.post(result);
}

function forget(local: number, running: Running): void {
  clearTimeout(running.deadline);
  executions.delete(local);
  running.front.executions.delete(running.id);
}

/**
 * A draining host ends only once every front has closed its connection: a front closes only after
 * its executions here were answered, those it sent before it heard of the drain included (answered
 * HOST_DRAINING), so none is lost with the process.
 */
function endIfDrained(): void {
  if (draining && fronts.size === 0 && executions.size === 0) owner.outbox.post({ t: 'drained' });
}

function cancel(front: Front, id: number): void {
  const local = front.executions.get(id);
  const running = local === undefined ? undefined : executions.get(local);
  if (local === undefined || !running) return;
  forget(local, running);
  if (running.lease) endLease(running.front, running.lease);
  running.isolate?.cancel(local);
}

function receive(front: Front, batch: FrontMessage[]): void {
  for (const message of batch) {
    switch (message.t) {
      case 'execute':
        execute(front, message);
        break;
      case 'cancel':
        cancel(front, message.id);
        break;
      case 'bridge-answer': {
        const call = bridgeCalls.get(message.call);
        if (call?.front !== front) break;
        bridgeCalls.delete(message.call);
        call.resolve(message.answer);
        break;
      }
      case 'revoke':
        for (const lease of front.leases) lease.revoke(message.name, message.version);
        break;
      case 'ping':
        front.outbox.post({ t: 'pong', id: message.id, warmIsolates: warm.count, heapBytes: warm.heapBytes, rssBytes: process.memoryUsage.rss(), heaviest: warm.heaviest, cpu: warm.takeCpu() });
        break;
      case 'drain':
        if (front !== owner || draining) break;
        draining = true;
        broadcast({ t: 'draining' });
        endIfDrained();
        break;
    }
  }
}

/** A front that went away: nothing of its executions may run any more. */
function disconnected(front: Front): void {
  fronts.delete(front);
  for (const id of [...front.executions.keys()]) cancel(front, id);
  for (const [call, pending] of bridgeCalls) {
    if (pending.front !== front) continue;
    bridgeCalls.delete(call);
    pending.resolve(ENDED);
  }
  endIfDrained();
}

const owner: Front = { outbox: new Outbox((batch) => process.send!(batch)), executions: new IdTable(), plans: new KnownPlans(), leases: new Set() };
process.on('message', (batch: FrontMessage[]) => receive(owner, batch));
// The owner is gone: nothing can be answered any more. A hard exit, because a parked isolate
// thread would keep a normal exit waiting forever.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
// A host's life is its owner's to end (a drain, or the disconnect above): a signal sent to the whole
// process group (Ctrl-C in a terminal, a service manager stopping every process of the service) would
// otherwise end it under renders its owner is still finishing, and have the owner start others.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  let front: Front | undefined = undefined;
  const send = framedSocket<FrontMessage, HostMessage>(socket, (batch) => front && receive(front, batch), { stopReadingWhileBehind: true });
  front = { outbox: new Outbox(send), executions: new IdTable(), plans: new KnownPlans(), leases: new Set() };
  fronts.add(front);
  socket.on('close', () => front && fronts.has(front) && disconnected(front));
  socket.on('error', () => socket.destroy());
  front.outbox.post({ t: draining ? 'draining' : 'ready' });
  if (reportedBusy !== '') front.outbox.post({ t: 'busy', components: reportedBusy.split('\n') });
});
// A socket the host cannot open leaves it unready: its owner replaces it after the start limit.
server.on('error', (error) => process.stderr.write(`The sandbox host cannot listen for fronts: ${error.message}\n`));
server.listen(socketPath, () => owner.outbox.post({ t: 'ready' }));

setInterval(() => {
  warm.checkIdle();
  void warm.measure();
}, HOUSEKEEPING_MS);

// An isolate past its memory limit times the watchdog's factor is stopped wherever its code is,
// built-ins included; a host still running a lost isolate ends before it passes its own limit (its
// owner starts another).
const watchdog = watchMemory(() => warm.isolates(), TENANCY_POLICY.memoryWatchdogFactor.value * limits.memoryMb * 1024 * 1024, limits.hostMemoryBytes, () => {
  if (!lostAnIsolate) return;
  process.stderr.write('The sandbox host ends: an isolate V8 could not stop holds memory past the host limit.\n');
  process.kill(process.pid, 'SIGKILL');
}, () => lostAnIsolate);

let reportedBusy = '';
new AtWorkInterval(BUSY_MS, () => {
  const components = warm.busyComponents(BUSY_MS);
  const key = components.join('\n');
  if (key !== reportedBusy) {
    reportedBusy = key;
    broadcast({ t: 'busy', components });
  }
  return anyAtWork() || reportedBusy !== '';
});
