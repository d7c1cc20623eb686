import { fail, slug } from "@quiver/core";
import type { GuideListing } from "./guide.js";
import { closest } from "./text.js";

/** "metaheuristicas (Metaheurísticas, 296113E)" for each listing. */
export const describeListings = (listings: ReadonlyArray<GuideListing>): string =>
  listings.map((l) => `${l.subject} (${l.name}${l.code ? `, ${l.code}` : ""})`).join("; ");

/** The listings' ids, for a suggestion ("metaheuristicas, mac"). */
export const subjectIds = (listings: ReadonlyArray<GuideListing>): string =>
  listings.map((l) => l.subject).join(", ");

const ambiguous = (wanted: string, matches: ReadonlyArray<GuideListing>) =>
  fail.outOfDomain(`"${wanted}" matches several subjects: ${describeListings(matches)}.`, {
    suggestion: `Use one of: ${subjectIds(matches)}.`,
  });

/**
 * The guide a subject given as id (`metaheuristicas`), name (`Metaheurísticas`), code (`296113E`) or
 * the guide's title line names; then a unique partial match ("modelos avanzados"). Several matches,
 * or none, are `out_of_domain` failures listing the candidates (and the nearest names, when none).
 */
export const resolveSubject = (wanted: string, listings: ReadonlyArray<GuideListing>): GuideListing => {
  const s = slug(wanted);
  // A code as given, or at the end of a title line ("Guía docente de X (296113E)").
  const codes = [s, slug(/\(([0-9A-Za-z]{4,12})\)\s*$/.exec(wanted)?.[1] ?? s)];
  const exact = (l: GuideListing) =>
    l.subject === s || slug(l.name) === s || (l.code !== null && codes.includes(slug(l.code)));
  const partial = (l: GuideListing) => {
    const n = slug(l.name);
    return (
      l.subject.includes(s) || n.includes(s) || (n.length >= 4 && s.includes(n)) || s.includes(l.subject)
    );
  };
  for (const matches of [listings.filter(exact), s ? listings.filter(partial) : []]) {
    if (matches.length > 1) throw ambiguous(wanted, matches);
    if (matches.length === 1) return matches[0]!;
  }
  const candidates = listings.flatMap((l) => [l.subject, l.name]);
  const names = closest(wanted, candidates);
  const near = listings.filter((l) => names.includes(l.subject) || names.includes(l.name));
  throw fail.outOfDomain(
    `There is no teaching guide for "${wanted}". Guides available: ${describeListings(listings)}.`,
    {
      suggestion:
        near.length > 0
          ? `Did you mean ${near.map((l) => `"${l.subject}"`).join(" or ")}?`
          : `Use one of: ${subjectIds(listings)}.`,
    },
  );
};
