import { closestMatches, slug } from "@quiver/core";

/** Collapses the scraped page's indentation ("MD01.\n\t\t\tLección magistral.") into single spaces. */
export const cleanText = (text: string): string =>
  text
    .replace(/[ \t]*\n[ \t]*\t[ \t]*/g, " ")
    .replace(/[ \t]{2,}/g, " ")
    .trim();

/** A copy of a JSON value with every string cleaned by {@link cleanText} (a JSON round trip with a reviver). */
export const cleanValue = (value: unknown): unknown =>
  value === undefined
    ? value
    : JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === "string" ? cleanText(v) : v));

/**
 * The three candidates closest to `wanted` (by slug), best first: those containing it or contained in it,
 * then the nearest by edit distance.
 */
export const closest = (wanted: string, candidates: ReadonlyArray<string>): string[] => {
  const w = slug(wanted);
  const overlaps = (c: string) => slug(c).includes(w) || w.includes(slug(c));
  const maxDistance = Math.max(3, Math.floor(w.length / 2));
  const others = candidates.filter((c) => !overlaps(c));
  const near = closestMatches(others, w, { key: slug, limit: 3, maxDistance });
  return [...candidates.filter(overlaps), ...near].slice(0, 3);
};
