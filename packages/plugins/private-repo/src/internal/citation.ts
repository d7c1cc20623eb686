import type { SearchHit } from "@quiver/search";

/** "Jane Q. Doe" or "Doe, Jane Q." → "Doe, J. Q." */
const apaAuthor = (raw: string): string => {
  const name = raw.trim();
  const words = name.split(/\s+/);
  const [last = "", given = ""] = name.includes(",")
    ? name.split(",", 2).map((s) => s.trim())
    : [words.at(-1), words.slice(0, -1).join(" ")];
  const initials = (given.match(/[^\s-]+/g) ?? []).map((p) => `${p[0]!.toUpperCase()}.`).join(" ");
  return initials ? `${last}, ${initials}` : last;
};

/** The document fields a citation is built from. */
export type Citable = Pick<SearchHit, "title" | "authors" | "date" | "doi">;

/** A DOI as a resolvable URL (accepts `10.x/…`, `doi:10.x/…` or a doi.org URL). */
export const doiUrl = (doi: string): string =>
  `https://doi.org/${doi.trim().replace(/^(?:doi:|https?:\/\/(?:dx\.)?doi\.org\/)/i, "")}`;

/**
 * An APA-style reference: `Doe, J., & Roe, R. (2020). Title. https://doi.org/10.…`; more than three authors
 * become "First, F., et al.", a missing date "(n.d.)".
 */
export const formatCitation = (doc: Citable): string => {
  const authors = (doc.authors ?? []).map(apaAuthor).filter(Boolean);
  const who =
    authors.length > 3
      ? `${authors[0]}, et al.`
      : authors.length > 1
        ? `${authors.slice(0, -1).join(", ")}, & ${authors.at(-1)}`
        : (authors[0] ?? "");
  const year = /^\d{4}/.exec(doc.date ?? "")?.[0] ?? "n.d.";
  const title = doc.title?.trim().replace(/\.$/, "");
  const parts = [`${who} (${year}).`.trim(), title && `${title}.`, doc.doi && doiUrl(doc.doi)];
  return parts.filter(Boolean).join(" ");
};
