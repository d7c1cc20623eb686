import { canonicalJson } from "./canonical-json.js";
import type { Cassette } from "./cassette.js";

/** `value` with object keys sorted at every depth (arrays keep their order): its canonical text read back. */
const sortKeysDeep = (value: unknown): unknown => JSON.parse(canonicalJson(value));

/**
 * A cassette as the text written to disk: two-space indented JSON with a final newline and keys
 * sorted at every depth, except inside `response_json`, which keeps the upstream's key order (a
 * tool may depend on it). The same recording gives the same bytes, so a re-recording diffs only
 * where an upstream answered differently.
 */
export const stringifyCassette = (cassette: Cassette): string => {
  const interactions = cassette.interactions.map((interaction) => {
    const { response_json, ...rest } = interaction;
    const sorted = sortKeysDeep(rest) as Record<string, unknown>;
    if (response_json === undefined) return sorted;
    return insertSorted(sorted, "response_json", response_json);
  });
  const { interactions: _, ...meta } = cassette;
  return `${JSON.stringify(insertSorted(sortKeysDeep(meta) as Record<string, unknown>, "interactions", interactions), null, 2)}\n`;
};

/** A copy of a key-sorted object with one more key, in its sorted place, its value left as is. */
const insertSorted = (
  sorted: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k of [...Object.keys(sorted), key].sort()) out[k] = k === key ? value : sorted[k];
  return out;
};
