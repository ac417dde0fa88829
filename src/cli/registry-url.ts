import { CliError } from './command';

/** A `--registry` value as a base URL ending with `/`, or an error that says what is expected. */
export function registryUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.endsWith('/') ? value : `${value}/`);
  } catch {
    throw new CliError(`--registry must be the registry's http:// or https:// address, not "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--registry must be an http:// or https:// address, not "${value}".`);
  return url;
}
