import { configure } from "safe-stable-stringify";

/** safe-stable-stringify: JSON.stringify with keys sorted at every depth (circular values become text). */
const stringify = configure({ deterministic: true });

/**
 * JSON with object keys sorted at every depth, so equal inputs name the same cassette and match
 * the same recorded request.
 *
 * @example
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }) // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export const canonicalJson = (value: unknown): string => stringify(value) ?? "";
