// Small JSON helpers the mappings share: comparing, showing and merging plain objects.
import type { Json } from "./types.js";

/** Whether two JSON values are the same (as JSON text). */
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** A value as JSON, for messages. */
export const show = (v: unknown) => JSON.stringify(v);
/** Whether a value is a plain JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** Merges constraints into criteria or filters; a constraint contradicting the query is a refusal. */
export const merge = (base: Json, extra: Json, where: string): Json | { readonly refused: string } => {
  for (const [k, v] of Object.entries(extra)) {
    if (k in base && !same(base[k], v)) {
      return {
        refused: `${k}: the constraint ${show(v)} contradicts the query's ${show(base[k])} (${where}); give one value`,
      };
    }
  }
  return { ...base, ...extra };
};

/** The value as a list of objects, or empty when it is not a list. */
export const records = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
/** The value as a list of strings, or empty when it is not a list. */
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
/** The object without its undefined fields. */
export const defined = (o: Json): Json =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
