import { CliError } from './command';

/** A `--port` value, or an error that says which values are allowed. */
export function portOption(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new CliError(`--port must be a port number from 0 to 65535, not "${value}".`);
  return port;
}
