/** What truncation did, for the envelope's message and metadata. */
export interface TruncationReport {
  readonly truncated: boolean;
  readonly originalChars: number;
  /** Human note: "kept 12 of 40 results", "shortened 3 texts". */
  readonly note?: string;
}

/**
 * Fits data into a character budget (its JSON length) while keeping its shape: drops trailing items
 * from the longest arrays first, then shortens the longest strings with an ellipsis marker.
 * Written by hand because no library truncates structured JSON to a size while keeping it valid.
 */
export const applyOutputBudget = <T>(data: T, maxChars: number): { data: T; report: TruncationReport } => {
  const originalChars = jsonLength(data);
  if (originalChars <= maxChars) return { data, report: { truncated: false, originalChars } };
  if (typeof data === "string") {
    const cut = `${data.slice(0, Math.max(0, maxChars - 20))}… [truncated]`;
    return { data: cut as T, report: { truncated: true, originalChars, note: "shortened the text" } };
  }
  const copy = structuredClone(data) as unknown;
  const arrays: { arr: unknown[]; original: number }[] = [];
  collectArrays(copy, arrays);
  let size = originalChars;
  // Pop from the longest array until the JSON fits, keeping at least one item in each.
  while (size > maxChars) {
    const longest = arrays
      .filter((a) => a.arr.length > 1)
      .sort((a, b) => jsonLength(b.arr) - jsonLength(a.arr))[0];
    if (!longest) break;
    const removeCount = Math.max(1, Math.floor(longest.arr.length * Math.min(0.5, (size - maxChars) / size)));
    longest.arr.splice(longest.arr.length - removeCount, removeCount);
    size = jsonLength(copy);
  }
  let shortened = 0;
  while (size > maxChars) {
    const holder = longestString(copy);
    if (!holder || holder.value.length <= 64) break;
    const excess = size - maxChars;
    const keep = Math.max(32, holder.value.length - excess - 32);
    holder.set(`${holder.value.slice(0, keep)}… [truncated]`);
    shortened++;
    size = jsonLength(copy);
  }
  const notes = arrays
    .filter((a) => a.arr.length < a.original)
    .map((a) => `kept ${a.arr.length} of ${a.original} items`);
  if (shortened > 0) notes.push(`shortened ${shortened} text${shortened === 1 ? "" : "s"}`);
  return {
    data: copy as T,
    report: { truncated: true, originalChars, note: notes.join(", ") || "shortened" },
  };
};

const jsonLength = (value: unknown): number => JSON.stringify(value)?.length ?? 0;

const collectArrays = (value: unknown, out: { arr: unknown[]; original: number }[]): void => {
  if (Array.isArray(value)) {
    out.push({ arr: value, original: value.length });
    for (const item of value) collectArrays(item, out);
  } else if (value && typeof value === "object") for (const v of Object.values(value)) collectArrays(v, out);
};

type StringHolder = { readonly value: string; readonly set: (v: string) => void };

const longestString = (root: unknown): StringHolder | undefined => {
  let best: StringHolder | undefined;
  const visit = (value: unknown): void => {
    if (!value || typeof value !== "object") return;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === "string") {
        if (!best || v.length > best.value.length) {
          const target = value as Record<string, unknown>;
          best = { value: v, set: (s) => (target[k] = s) };
        }
      } else visit(v);
    }
  };
  visit(root);
  return best;
};
