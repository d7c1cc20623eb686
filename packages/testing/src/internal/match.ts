import type { PathPattern } from "../emulator/route.js";

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** True when `method` ("*" for any) accepts the request method. */
export const methodMatches = (pattern: string, method: string): boolean =>
  pattern === "*" || pattern.toUpperCase() === method.toUpperCase();

/**
 * Matches a path pattern: strings compare after percent-decoding both sides, RegExps are tested
 * against the raw path. Returns the RegExp match, `true` for a string match, or `false`.
 */
export const pathMatches = (pattern: PathPattern, path: string): RegExpExecArray | boolean => {
  if (typeof pattern === "string") return pattern === path || safeDecode(pattern) === safeDecode(path);
  pattern.lastIndex = 0;
  const m = pattern.exec(path);
  return m ?? false;
};

/** Canonical form of a query string: entries sorted, so order and encoding do not matter. */
export const canonicalQuery = (query: URLSearchParams): string => {
  const sorted = new URLSearchParams([...query.entries()].sort(([a, x], [b, y]) => cmp(a, b) || cmp(x, y)));
  return sorted.toString();
};

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Structural equality for JSON values (key order ignored). */
export const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  const ra = a as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && jsonEqual(ra[k], rb[k]));
};
