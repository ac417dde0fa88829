/** Where a packaged component keeps the env file its descriptor's `oc.files.env` names. */
export const ENV_FILE = '.env';
