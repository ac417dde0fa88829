import { request } from '../helpers/start-registry';

/** POSTs a JSON body (a string is sent as is, so tests can send broken JSON). */
export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
