import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { TesseraError } from '../errors/errors';
import { SERVER_READER_NODE_FLAGS } from '../node-flags';
import type { ParameterDefinition } from '../descriptor/descriptor-types';
import type { ReadAnswer, ReadRequest } from './server-definition-child';

export interface ServerDescription {
  kind: 'modern' | 'legacy';
  parameters: Record<string, ParameterDefinition>;
  actions: string[];
}

const CHILD_FILE = path.join(__dirname, 'server-definition-child.js');
/** Far past the isolate's own 5 s limit, for a loaded machine: a reader that has not answered by then is stuck. */
const ANSWER_LIMIT_MS = 60_000;

interface Waiting {
  resolve(answer: ReadAnswer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One reader process at a time, started on the first bundle to read and reused for the next ones.
 * It never keeps this process alive (referenced only while a read waits), and is killed when this
 * process exits: a command that packaged never waits for isolated-vm's teardown, in a process
 * that never loaded it.
 */
let reader: { child: ChildProcess; waiting: Map<number, Waiting> } | undefined;
let nextId = 0;

function startReader(): NonNullable<typeof reader> {
  const child = fork(CHILD_FILE, [], { execArgv: [...SERVER_READER_NODE_FLAGS], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const started = { child, waiting: new Map<number, Waiting>() };
  child.on('message', (answer: ReadAnswer) => {
    const waiting = started.waiting.get(answer.id);
    if (!waiting) return;
    settle(started, answer.id);
    waiting.resolve(answer);
  });
  const ended = (why: string) => {
    if (reader === started) reader = undefined;
    for (const [id, waiting] of started.waiting) {
      settle(started, id);
      waiting.reject(new Error(why));
    }
  };
  child.once('exit', (code, signal) => ended(`the process reading the server entry ended (${signal ?? `code ${code}`})`));
  // It could not start (no process left to fork), or a message could not reach it: no read waits for it any more.
  child.on('error', (error) => {
    ended(`the process reading the server entry failed: ${error.message}`);
    child.kill('SIGKILL');
  });
  child.unref();
  child.channel?.unref();
  return started;
}

function settle(started: NonNullable<typeof reader>, id: number): void {
  clearTimeout(started.waiting.get(id)?.timer);
  started.waiting.delete(id);
  if (started.waiting.size === 0) started.child.channel?.unref();
}

process.once('exit', () => stopServerReader());

/** Ends the reader process, if one runs (a registry that packaged its demo components keeps none). */
export function stopServerReader(): void {
  reader?.child.kill('SIGKILL');
  reader = undefined;
}

function askReader(code: string): Promise<ReadAnswer> {
  const current = (reader ??= startReader());
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the server entry was not read within ${ANSWER_LIMIT_MS / 1000} s`));
      stopServerReader();
    }, ANSWER_LIMIT_MS);
    current.waiting.set(id, { resolve, reject, timer });
    current.child.channel?.ref();
    current.child.send({ id, code } satisfies ReadRequest);
  });
}

/**
 * Evaluates a server bundle in a throw-away isolate of another process (never in the packager's
 * own realm) to read what a modern entry declares with `withParameters` and `.action`.
 */
export async function readServerDefinition(serverCode: string): Promise<ServerDescription> {
  let answer: ReadAnswer;
  try {
    answer = await askReader(serverCode);
  } catch (error) {
    throw failsWhenLoaded((error as Error).message);
  }
  if (answer.described === undefined) throw failsWhenLoaded(answer.failure ?? 'unknown failure');
  let described: { kind?: string; message?: string; parameters?: Record<string, ParameterDefinition>; actions?: string[] };
  try {
    // Written by the bundle's realm, whose JSON the tenant's code may have replaced.
    described = (JSON.parse(answer.described) as typeof described | null) ?? {};
  } catch (error) {
    throw failsWhenLoaded((error as Error).message);
  }
  if (described.kind === 'failed') throw failsWhenLoaded(described.message ?? 'unknown failure');
  if (described.kind !== 'modern' && described.kind !== 'legacy') {
    throw new TesseraError('PACKAGE_NOT_VALID', 'The server entry exports neither `server` (built with oc-server) nor a legacy `data` function.', {
      details: { problems: ['the server entry must export `server` or `data`'] },
    });
  }
  return { kind: described.kind, parameters: described.parameters ?? {}, actions: described.actions ?? [] };
}

const failsWhenLoaded = (problem: string) => new TesseraError('PACKAGE_NOT_VALID', 'The server entry fails when loaded.', { details: { problems: [problem] } });
