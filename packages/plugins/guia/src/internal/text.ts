/** Lower case, accents removed, every run of other characters turned into one `_`. */
export const slug = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");

/** Collapses the scraped page's indentation ("MD01.\n\t\t\tLección magistral.") into single spaces. */
export const cleanText = (text: string): string =>
  text
    .replace(/[ \t]*\n[ \t]*\t[ \t]*/g, " ")
    .replace(/[ \t]{2,}/g, " ")
    .trim();

/** A copy of a JSON value with every string cleaned by {@link cleanText}. */
export const cleanValue = (value: unknown): unknown => {
  if (typeof value === "string") return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanValue);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanValue(v)]));
  }
  return value;
};

/** Levenshtein distance, for "did you mean" suggestions. */
export const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length]!;
};

/** The candidates closest to `wanted` (by slug), best first. */
export const closest = (wanted: string, candidates: ReadonlyArray<string>, n = 3): string[] => {
  const w = slug(wanted);
  return [...candidates]
    .map((c) => ({ c, d: slug(c).includes(w) || w.includes(slug(c)) ? 0 : distance(w, slug(c)) }))
    .filter((x) => x.d <= Math.max(3, Math.floor(w.length / 2)))
    .sort((a, b) => a.d - b.d)
    .slice(0, n)
    .map((x) => x.c);
};
