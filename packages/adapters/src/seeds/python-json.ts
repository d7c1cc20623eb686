/**
 * `json.dumps(value, ensure_ascii=False)` as Python writes it: `", "` between items and `": "` after
 * keys, non-ASCII characters as they are. The chatbot's `get_guia` returned this string, and its
 * callers compare it, so the separators matter. JSON.stringify has no separator option, and no
 * library writes Python's default layout, hence these lines.
 *
 * @example
 * pythonJsonDumps({ a: [1, "é"] }) // '{"a": [1, "é"]}'
 */
export const pythonJsonDumps = (value: unknown): string => {
  if (value === undefined || value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pythonJsonDumps(v)}`).join(", ")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return "NaN";
  return JSON.stringify(value);
};
