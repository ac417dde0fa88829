/** `href` of a component response (decisions §4): base URL, name, requested version, then the parameters. */
export function buildHref(baseUrl: string, name: string, requestVersion: string, params: Record<string, unknown>): string {
  // The expression as asked (`^1.2`, `>=1`), encoded like the parameters so that href is always a valid URL.
  let href = baseUrl + name + (requestVersion ? `/${encodeURIComponent(requestVersion)}` : '');
  const query = Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  if (query) href += `?${query}`;
  return href;
}
