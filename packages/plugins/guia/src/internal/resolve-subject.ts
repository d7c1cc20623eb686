import { slug } from "@quiver/core";
import type { GuideListing } from "./guide.js";
import { closest } from "./text.js";

/** The outcome of matching what the user typed against the stored guides. */
export type SubjectMatch =
  | { readonly ok: true; readonly listing: GuideListing }
  | {
      readonly ok: false;
      readonly ambiguous: ReadonlyArray<GuideListing>;
      readonly near: ReadonlyArray<GuideListing>;
    };

/**
 * Matches a subject given as id (`metaheuristicas`), name (`Metaheurísticas`), code (`296113E`) or the
 * guide's title line; then a unique partial match ("modelos avanzados").
 */
export const resolveSubject = (wanted: string, listings: ReadonlyArray<GuideListing>): SubjectMatch => {
  const s = slug(wanted);
  const code = /\(([0-9A-Za-z]{4,12})\)\s*$/.exec(wanted)?.[1];
  const exact = listings.filter(
    (l) =>
      l.subject === s ||
      slug(l.name) === s ||
      (l.code && (slug(l.code) === s || (code && slug(l.code) === slug(code)))),
  );
  if (exact.length === 1) return { ok: true, listing: exact[0]! };
  if (exact.length > 1) return { ok: false, ambiguous: exact, near: [] };
  const partial = s
    ? listings.filter((l) => {
        const n = slug(l.name);
        return (
          l.subject.includes(s) || n.includes(s) || (n.length >= 4 && s.includes(n)) || s.includes(l.subject)
        );
      })
    : [];
  if (partial.length === 1) return { ok: true, listing: partial[0]! };
  if (partial.length > 1) return { ok: false, ambiguous: partial, near: [] };
  const names = closest(
    wanted,
    listings.flatMap((l) => [l.subject, l.name]),
  );
  return {
    ok: false,
    ambiguous: [],
    near: listings.filter((l) => names.includes(l.subject) || names.includes(l.name)),
  };
};

/** "metaheuristicas (Metaheurísticas, 296113E)" for each listing. */
export const describeListings = (listings: ReadonlyArray<GuideListing>): string =>
  listings.map((l) => `${l.subject} (${l.name}${l.code ? `, ${l.code}` : ""})`).join("; ");
