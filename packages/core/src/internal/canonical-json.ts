/**
 * JSON with object keys sorted at every depth, so equal inputs give equal cache keys.
 *
 * Validated tool inputs are plain data: their objects are copied in key order only where they are
 * not in it already, and the result goes through `JSON.stringify` without a replacer (its fast
 * path). Anything else — a `toJSON` method, a class instance, an own `__proto__` key — takes the
 * general path (a sorting replacer), whose output the first one reproduces exactly.
 */
export const canonicalJson = (value: unknown): string => {
  const sorted = sortKeys(value);
  return sorted === GENERAL ? general(value) : JSON.stringify(sorted);
};

const GENERAL: unique symbol = Symbol("general");

/** `v` itself when every object in it is already in key order, else a copy that is. */
const sortKeys = (v: unknown): unknown => {
  if (typeof v !== "object" || v === null) return v;
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") return GENERAL;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const item = sortKeys(v[i]);
      if (item === GENERAL) return GENERAL;
      if (item !== v[i]) {
        out ??= v.slice();
        out[i] = item;
      }
    }
    return out ?? v;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return GENERAL;
  const record = v as Record<string, unknown>;
  const keys = Object.keys(record);
  let inOrder = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === "__proto__") return GENERAL;
    if (i > 0 && keys[i - 1]! > key) inOrder = false;
    const item = record[key];
    if (typeof item === "object" && item !== null) {
      const sorted = sortKeys(item);
      if (sorted === GENERAL) return GENERAL;
      if (sorted !== item) inOrder = false;
    }
  }
  if (inOrder) return v;
  keys.sort();
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const item = record[key];
    out[key] = typeof item === "object" && item !== null ? sortKeys(item) : item;
  }
  return out;
};

const general = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
