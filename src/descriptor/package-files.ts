/** Where a packaged component keeps the env file its descriptor's `oc.files.env` names. */
export const ENV_FILE = '.env';

/** The source map of a packaged component's `server.js`, beside it (src/tail/source-map.ts reads it). */
export const SERVER_SOURCE_MAP = 'server.js.map';
