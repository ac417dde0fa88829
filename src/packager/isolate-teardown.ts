/**
 * isolated-vm tears a disposed isolate down on a thread of its own, for up to a few hundred
 * milliseconds after `dispose()` returns; a process that ends meanwhile can abort (SIGABRT) in its
 * exit hooks. A command that read a server bundle in a throw-away isolate lets that teardown end
 * before the process does. Imports nothing: the commands that never make an isolate load no more.
 */
const TEARDOWN_MS = 300;

let disposedAt: number | undefined;

/** An isolate of this process was disposed just now. */
export function noteIsolateDisposed(): void {
  disposedAt = performance.now();
}

/** Resolves once the isolates this process disposed have had time to be torn down. */
export function isolatesTornDown(): Promise<void> {
  const left = disposedAt === undefined ? 0 : disposedAt + TEARDOWN_MS - performance.now();
  return left <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, left));
}
