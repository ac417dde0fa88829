import { isErrorCode, TesseraError } from '../errors/errors';
import { matchesNamePattern } from '../config/name-pattern';

/** What a tail asks to see (`GET /~tail?pattern=&outcome=&status=&sample=`). */
export interface TailFilter {
  /** A component name pattern (`shop-*`); none: every component the tail may see. */
  pattern?: string;
  /** `ok`, `error` and error codes; none: every outcome. */
  outcomes?: ReadonlySet<string>;
  /** Statuses (`500`) and classes (`5`, from `5xx`); none: every status. */
  statuses?: { exact: ReadonlySet<number>; classes: ReadonlySet<number> };
  /** The share of matching executions sent, in (0, 1]. */
  sample: number;
  /** This replica's executions only (`local=true`): how a replica holding a tail asks each of its peers for theirs. */
  local: boolean;
}

const PATTERN = /^[A-Za-z0-9@/._~*-]{1,214}$/;
const STATUS = /^([1-5])(?:([0-9]{2})|xx)$/i;

const invalid = (name: string, problem: string): TesseraError =>
  new TesseraError('NOT_VALID_REQUEST', `Query parameter "${name}" ${problem}.`, { details: { parameters: [{ name, problem }] } });

const listOf = (value: string): string[] => value.split(',').map((item) => item.trim());

const PARAMETERS = new Set(['pattern', 'outcome', 'status', 'sample', 'local']);

/** The filter a tail's query string asks for; NOT_VALID_REQUEST naming the parameter that is malformed, unknown or given twice. */
export function parseTailFilter(query: Record<string, unknown>): TailFilter {
  for (const [name, value] of Object.entries(query)) {
    if (!PARAMETERS.has(name)) throw invalid(name, 'is not a filter of a tail (pattern, outcome, status, sample, local)');
    if (typeof value !== 'string') throw invalid(name, 'is given more than once');
  }
  const filter: TailFilter = { sample: 1, local: false };
  const { pattern, outcome, status, sample, local } = query as Record<string, string | undefined>;
  if (pattern !== undefined) {
    if (!PATTERN.test(pattern)) throw invalid('pattern', 'must be a component name, `*` matching any run of characters');
    filter.pattern = pattern;
  }
  if (outcome !== undefined) {
    const outcomes = listOf(outcome);
    const wrong = outcomes.find((item) => item !== 'ok' && item !== 'error' && !isErrorCode(item));
    if (wrong !== undefined) throw invalid('outcome', 'must be ok, error or error codes of docs/reference/errors.md, comma-separated');
    filter.outcomes = new Set(outcomes);
  }
  if (status !== undefined) {
    const exact = new Set<number>();
    const classes = new Set<number>();
    for (const item of listOf(status)) {
      const match = STATUS.exec(item);
      if (!match) throw invalid('status', 'must be HTTP statuses (500) or classes (5xx), comma-separated');
      if (match[2] === undefined) classes.add(Number(match[1]));
      else exact.add(Number(item));
    }
    filter.statuses = { exact, classes };
  }
  if (sample !== undefined) {
    const rate = /^[0-9.]+(e-?[0-9]+)?$/i.test(sample.trim()) ? Number(sample) : Number.NaN;
    if (!(rate > 0 && rate <= 1)) throw invalid('sample', 'must be a number greater than 0 and at most 1');
    filter.sample = rate;
  }
  if (local !== undefined) {
    if (local !== 'true' && local !== 'false') throw invalid('local', 'must be true or false');
    filter.local = local === 'true';
  }
  return filter;
}

/** Whether an execution of `name` that ended with `status` and `code` (none when it answered) passes the filter (its sampling aside). */
export function passes(filter: TailFilter, name: string, status: number, code: string | undefined): boolean {
  if (filter.pattern !== undefined && !matchesNamePattern([filter.pattern], name)) return false;
  if (filter.outcomes !== undefined) {
    const seen = code === undefined ? filter.outcomes.has('ok') : filter.outcomes.has('error') || filter.outcomes.has(code);
    if (!seen) return false;
  }
  if (filter.statuses !== undefined && !filter.statuses.exact.has(status) && !filter.statuses.classes.has(Math.floor(status / 100))) return false;
  return true;
}

/**
 * Whether every name `pattern` matches is matched by one of `scope` (a token's name patterns): the
 * pattern read as a name, its `*` as characters, is matched by a scope pattern. A scope pattern's
 * `*` then absorbs whatever the pattern's own `*` stands for.
 */
export function withinScope(pattern: string, scope: readonly string[]): boolean {
  return matchesNamePattern(scope, pattern);
}
