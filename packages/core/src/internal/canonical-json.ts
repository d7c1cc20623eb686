import { configure } from "safe-stable-stringify";

/**
 * safe-stable-stringify: JSON.stringify with keys sorted at every depth, kept up to date by its
 * authors and used widely (pino, winston). Circular values and bigints become text instead of
 * throwing, so computing a cache key can never fail a call.
 */
const stringify = configure({ deterministic: true });

/**
 * JSON with object keys sorted at every depth, so equal inputs give equal cache keys, request
 * keys and cassette names. The one stable stringify of core: everything that needs a canonical
 * text of a value calls this.
 *
 * @example
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }) // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export const canonicalJson = (value: unknown): string => stringify(value) ?? "";
