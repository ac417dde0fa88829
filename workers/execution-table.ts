import { IdTable } from '../src/sandbox/id-table';
import type { TailReport } from '../src/sandbox/protocol';
import { isLetGo, type ExecutionState } from './execution-state';
import type { TailLines } from './tail-lines';
import type { VersionContext } from './version-context';

/** One execution in the isolate, from its start until it ends (execution-state.ts: its life). */
export interface Execution {
  readonly version: VersionContext;
  state: ExecutionState;
  /** Resolvers of its bridge calls still waiting on the front; answered ENDED when it ends. */
  readonly calls: Set<(answer: string) => void>;
  /** Flags its synchronous calls (plugins) sleep on, from its first such call: raised when it ends, so its thread never sleeps on. */
  sleeping: Set<SharedArrayBuffer> | undefined;
  /** Its time limit: its own full limit (it then discards the isolate) or its caller's shorter budget (execution-timers.ts). */
  timer: NodeJS.Timeout;
  /** Gets its answer, and what a tail gets of it when one watches it. */
  readonly finish: (answer: string, tail?: TailReport) => void;
  /** Calls into the isolate that started or resumed it and have not settled: while any has not, its code may be running. */
  tasks: number;
  /** Run for another tenant's request: that request's cancel never discards this isolate. */
  readonly foreign: boolean;
  /** A tail watches it: its share of the CPU time of the entries it ran in is counted. */
  readonly tail: boolean;
  cpuNs: bigint;
  /** Its console lines, when a tail watches it. */
  readonly lines: TailLines | undefined;
}

/** The isolate's live executions by id: what it knows it runs, and for which version. */
export class ExecutionTable extends IdTable<Execution> {
  /** Whether any execution of the version is in the table. */
  runs(version: VersionContext): boolean {
    for (const execution of this.values()) if (execution.version === version) return true;
    return false;
  }

  /** The versions its executions run (one key for each execution). */
  versionKeys(): string[] {
    return [...this.values()].map((execution) => execution.version.key);
  }

  /** Whether every execution in it was let go (cancelled, or past its deadline): none is waited for. */
  allLetGo(): boolean {
    for (const execution of this.values()) if (!isLetGo(execution.state)) return false;
    return true;
  }

  /** The execution of `id` when it belongs to `version`: an id of another version's names nothing its context may act for. */
  ownOf(version: VersionContext, id: number): Execution | undefined {
    const execution = this.get(id);
    return execution !== undefined && execution.version === version ? execution : undefined;
  }
}
