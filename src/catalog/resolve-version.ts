import semver from 'semver';

/**
 * Resolves a version expression against published versions (decisions §3): empty or `latest` →
 * the highest stable version (a prerelease only when there is no stable one); an exact match wins;
 * otherwise the highest version satisfying the range (`~1.2.3`, `^1.2.3`, `1`, `1.x`, `1.X.X`, …).
 */
export function resolveVersion(versions: readonly string[], expression: string): string | undefined {
  if (expression === '' || expression === 'latest') {
    return semver.maxSatisfying(versions as string[], '*') ?? semver.maxSatisfying(versions as string[], '*', { includePrerelease: true }) ?? undefined;
  }
  if (versions.includes(expression)) return expression;
  if (semver.validRange(expression) === null) return undefined;
  return semver.maxSatisfying(versions as string[], expression) ?? undefined;
}
