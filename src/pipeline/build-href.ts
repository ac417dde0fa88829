/** `href` of a component response (decisions §4): base URL, name, requested version, then the parameters. */
export function buildHref(baseUrl: string, name: string, requestVersion: string, params: Record<string, unknown>): string {
  let href = baseUrl + name + (requestVersion ? `/${versionInPath(requestVersion)}` : '');
  let separator = '?';
  for (const key of Object.keys(params)) {
    href += `${separator}${encodeURIComponent(key)}=${encodeURIComponent(String(params[key]))}`;
    separator = '&';
  }
  return href;
}

/** Characters a URL path cannot carry as they are (a range's spaces and `<`, `>`); `^`, `~`, `x` stay as OC writes them. */
const NOT_IN_PATH = /[\s"<>#?%\\`{}|]/;
const NOT_IN_PATH_ALL = new RegExp(NOT_IN_PATH.source, 'g');

/** The version expression as asked, as a path segment; most (`1.x.x`, `~1.0.0`) need no encoding, which testing first spares. */
const versionInPath = (expression: string): string => (NOT_IN_PATH.test(expression) ? expression.replace(NOT_IN_PATH_ALL, encodeURIComponent) : expression);
