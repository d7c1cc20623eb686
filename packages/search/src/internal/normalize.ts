/** Lowercase, without diacritics or punctuation, single-spaced: the form names and tags are compared in. */
export function comparable(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'’-]+/gu, " ")
    .trim()
    .replace(/\s+/g, " ");
}

/** An author as displayed ("Jane Doe") and as compared: the full name and the last name. */
export interface AuthorName {
  readonly display: string;
  readonly name: string;
  readonly last: string;
}

/** Normalises an author name; "Doe, Jane" becomes "Jane Doe". Returns `undefined` for a blank name. */
export function authorName(raw: string): AuthorName | undefined {
  let display = raw.trim().replace(/\s+/g, " ");
  const comma = display.indexOf(",");
  if (comma > 0) {
    const last = display.slice(0, comma).trim();
    const first = display.slice(comma + 1).trim();
    display = first ? `${first} ${last}` : last;
  }
  const name = comparable(display);
  if (!name) return undefined;
  return { display, name, last: name.slice(name.lastIndexOf(" ") + 1) };
}

/** The compared form of a tag. */
export function tagKey(tag: string): string {
  return tag.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, " ");
}
