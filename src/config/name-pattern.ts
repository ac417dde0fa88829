/** Whether a name matches one of the patterns, where `*` matches any run of characters (`checkout-*`). */
export function matchesNamePattern(patterns: readonly string[], name: string): boolean {
  return patterns.some((pattern) => patternRegExp(pattern).test(name));
}

function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'u');
}
