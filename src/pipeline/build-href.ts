/** `href` of a component response (decisions §4): base URL, name, requested version, then the parameters. */
export function buildHref(baseUrl: string, name: string, requestVersion: string, params: Record<string, unknown>): string {
  let href = baseUrl + name + (requestVersion ? `/${versionInPath(requestVersion)}` : '');
  const query = Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  if (query) href += `?${query}`;
  return href;
}

/** Characters a URL path cannot carry as they are (a range's spaces and `<`, `>`); `^`, `~`, `x` stay as OC writes them. */
const NOT_IN_PATH = /[\s"<>#?%\\`{}|]/g;

/** The version expression as asked, as a path segment. */
const versionInPath = (expression: string): string => expression.replace(NOT_IN_PATH, encodeURIComponent);
