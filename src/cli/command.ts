/** One `tessera` sub-command. */
export interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<void>;
}

/** A failure whose message already says what to do; printed without a code. */
export class CliError extends Error {}
