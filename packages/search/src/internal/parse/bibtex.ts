import { bibtexParser } from "latex-utensils";

/** One BibTeX entry: its type (lowercase), citation key and fields (lowercase names; values keep their LaTeX). */
export interface BibEntry {
  readonly type: string;
  readonly key: string;
  readonly fields: Readonly<Record<string, string>>;
  /** Line of the `@` that opens the entry, from 1. */
  readonly line: number;
}

/** The entries of a .bib file and what could not be read. */
export interface BibFile {
  readonly entries: readonly BibEntry[];
  readonly problems: readonly { readonly line: number; readonly message: string }[];
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

type Item = bibtexParser.BibtexAst["content"][number];
type Value = bibtexParser.FieldValue | bibtexParser.StringEntry["value"];

/** An entry, `@string` or `@preamble` the grammar read, with its line in the whole file. */
interface Read {
  readonly item: Item;
  readonly line: number;
}

/** Offsets of `@` that open a line (after blanks): where entries start. */
const ENTRY_START = /(?<=^|\n)[ \t]*@/g;

const entryStarts = (text: string, from: number, to: number): number[] => {
  ENTRY_START.lastIndex = from;
  const starts: number[] = [];
  for (let m = ENTRY_START.exec(text); m && m.index < to; m = ENTRY_START.exec(text)) starts.push(m.index);
  return starts;
};

const lineAt = (text: string, offset: number): number => text.slice(0, offset).split("\n").length;

/**
 * Reads `text[from, to)` with the grammar, stepping over the entries it refuses. The grammar stops at its first
 * syntax error, so on one the text is cut at the last entry start before the error: the part before is read on
 * its own (it may hold an earlier error, such as an unclosed brace whose group ran on), and the entry at the cut
 * is reported and skipped if it fails again by itself. Each cut makes the parts shorter, so this ends; a file
 * without errors is parsed once.
 */
function readSegment(
  text: string,
  from: number,
  to: number,
  out: Read[],
  problems: { line: number; message: string }[],
): void {
  let ast: bibtexParser.BibtexAst;
  try {
    ast = bibtexParser.parse(text.slice(from, to));
  } catch (error) {
    if (!bibtexParser.isSyntaxError(error)) throw error;
    const at = from + error.location.start.offset;
    const starts = entryStarts(text, from, to);
    const cut = starts.filter((s) => s <= at).at(-1);
    if (cut !== undefined && cut > from) {
      readSegment(text, from, cut, out, problems);
      readSegment(text, cut, to, out, problems);
      return;
    }
    // The entry at `from` fails by itself (or text before any entry does): report it, go on at the next entry.
    const failed = cut ?? at;
    problems.push({
      line: lineAt(text, failed),
      message:
        error.found === null
          ? "a brace or quote opened in this entry is never closed; the entry is skipped"
          : `${error.message.replace(/\.$/, "")} at line ${lineAt(text, at)}; the entry is skipped`,
    });
    const next = starts.find((s) => s > failed);
    if (next !== undefined) readSegment(text, next, to, out, problems);
    return;
  }
  const base = lineAt(text, from) - 1;
  for (const item of ast.content) out.push({ item, line: base + item.location.start.line });
}

/**
 * Reads a BibTeX file. An entry that cannot be read is reported with its line and skipped; the others are
 * returned. `@string` macros and month names are expanded, `@comment` and `@preamble` skipped. Field values keep
 * their LaTeX (turn it into text with `latexToText` of `./latex-text.js`).
 *
 * The grammar is `latex-utensils`' (the parser of LaTeX Workshop for VS Code): maintained, typed, about a
 * megabyte with no required dependencies, and it gives every node its line. The other parsers on npm were weighed:
 * `@retorquere/bibtex-parser` (Better BibTeX for Zotero) recovers from errors itself but installs about 17 MB
 * (an NLP model for sentence casing among them) with every host, and turns LaTeX into Zotero's HTML subset
 * (`<i>`, `<` as `¡`) rather than text; `bibtex-parse`, `@orcid/bibtex-parse-js` and `bibtex` have no types
 * or no release for years; `astrocite-bibtex` and citation.js convert to CSL through a plugin registry.
 *
 * @example
 * parseBibtex("@article{k, title = {A {DNA} study}, year = 2020}").entries[0]?.fields // { title: "A {DNA} study", year: "2020" }
 */
export function parseBibtex(text: string): BibFile {
  const read: Read[] = [];
  const problems: { line: number; message: string }[] = [];
  readSegment(text, 0, text.length, read, problems);
  const macros = new Map<string, string>(MONTHS.map((m, i) => [m, String(i + 1)]));
  // Unknown macros read as their name, as the hand reader before this one did and BibTeX warns.
  const textOf = (value: Value): string =>
    value.kind === "concat"
      ? value.content.map(textOf).join("")
      : value.kind === "abbreviation"
        ? (macros.get(value.content.toLowerCase()) ?? value.content)
        : value.content;
  const entries: BibEntry[] = [];
  for (const { item, line } of read) {
    if (bibtexParser.isStringEntry(item)) macros.set(item.abbreviation.toLowerCase(), textOf(item.value));
    else if (bibtexParser.isEntry(item)) {
      if (item.internalKey === undefined) {
        problems.push({ line, message: "the entry has no citation key; it is skipped" });
        continue;
      }
      const fields: Record<string, string> = {};
      for (const field of item.content) fields[field.name.toLowerCase()] = textOf(field.value);
      entries.push({ type: item.entryType.toLowerCase(), key: item.internalKey, fields, line });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  return { entries, problems };
}
