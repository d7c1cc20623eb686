/**
 * Levenshtein distance between two strings: the fewest insertions, deletions and substitutions
 * that turn one into the other.
 *
 * Use it to score how near a name is to another; for a "did you mean" list use {@link closestMatches}.
 *
 * @example
 * editDistance("kitten", "sitting") // 3
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Options of {@link closestMatches}. */
export interface ClosestMatchesOptions<T> {
  /** How many matches at most (default 3). */
  readonly limit?: number;
  /** The largest edit distance a match may have (default: no bound). */
  readonly maxDistance?: number;
  /**
   * The text a candidate is compared by (default `String(candidate)`). Normalise `target` the same
   * way, e.g. lower-case both for a case-insensitive match.
   */
  readonly key?: (candidate: T) => string;
}

/**
 * The candidates nearest to `target` by {@link editDistance}, best first; ties keep the candidates'
 * order. Empty when no candidate is within `maxDistance`.
 *
 * Use it for "did you mean" suggestions after an unknown name (a tool, a collection, a section).
 *
 * @example
 * closestMatches(["probe", "other_probe", "search"], "prob", { limit: 2 }) // ["probe", "other_probe"]
 * closestMatches(readable, "notse", { key: (c) => c.name, maxDistance: 2 }) // the collections named ~"notes"
 */
export function closestMatches<T>(
  candidates: Iterable<T>,
  target: string,
  options: ClosestMatchesOptions<T> = {},
): T[] {
  const { limit = 3, maxDistance = Number.POSITIVE_INFINITY, key = String } = options;
  return [...candidates]
    .map((candidate) => ({ candidate, distance: editDistance(key(candidate), target) }))
    .filter((s) => s.distance <= maxDistance)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, Math.max(0, limit))
    .map((s) => s.candidate);
}

/** The candidate nearest to `input`, case-insensitively ("Oral" → "oral"), at most `maxDistance` edits away. */
export const nearestIgnoringCase = <T>(
  candidates: ReadonlyArray<T>,
  input: unknown,
  maxDistance = Infinity,
) => {
  const lower = (candidate: unknown) => String(candidate).toLowerCase();
  return closestMatches(candidates, lower(input), { limit: 1, maxDistance, key: lower })[0];
};
