/** Writes one structured log line (the registry's logger). */
export type LogLine = (fields: Record<string, unknown>, message: string) => void;

/** Where nested renders are logged: failures always, successes only with the access log on. */
export interface BridgeLog {
  failed: LogLine;
  rendered?: LogLine;
}
