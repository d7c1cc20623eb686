/** One BibTeX entry: its type (lowercase), citation key and fields (lowercase names, LaTeX turned into text). */
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

const ACCENTS: Readonly<Record<string, string>> = {
  "'": "\u0301",
  "`": "\u0300",
  "^": "\u0302",
  '"': "\u0308",
  "~": "\u0303",
  "=": "\u0304",
  ".": "\u0307",
  u: "\u0306",
  v: "\u030C",
  H: "\u030B",
  c: "\u0327",
  k: "\u0328",
  r: "\u030A",
};

const SYMBOLS: Readonly<Record<string, string>> = {
  ss: "ß",
  ae: "æ",
  AE: "Æ",
  oe: "œ",
  OE: "Œ",
  o: "ø",
  O: "Ø",
  l: "ł",
  L: "Ł",
  aa: "å",
  AA: "Å",
  i: "ı",
  j: "ȷ",
};

/** LaTeX markup of a field value to plain text: accents, escaped characters, groups, dashes, ties. */
export function latexToText(value: string): string {
  return (
    value
      // \'{e}, \'e, {\'e}, \c{c}
      .replace(
        /\\([`'^"~=.uvHckr])\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))/g,
        (_, accent: string, a, b) => {
          const letter = ((a ?? b) as string).replace(/^\\/, "");
          return (letter === "i" ? "i" : letter) + (ACCENTS[accent] ?? "");
        },
      )
      .replace(
        /\\(ss|ae|AE|oe|OE|aa|AA|[oOlLij])(?![A-Za-z])\s*/g,
        (_, name: string) => SYMBOLS[name] ?? name,
      )
      .replace(/\\([&%$#_{}])/g, "$1")
      // Other commands: \emph{x} -> x, \LaTeX -> LaTeX.
      .replace(/\\[A-Za-z]+\*?\s*/g, "")
      .replace(/[{}]/g, "")
      .replace(/---/g, "—")
      .replace(/--/g, "–")
      .replace(/~/g, " ")
      .replace(/\s+/g, " ")
      .normalize("NFC")
      .trim()
  );
}

/** Splits an `author` field on top-level " and ". */
export function splitAuthors(value: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === "{") depth++;
    else if (ch === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0 && /^\s+and\s+/i.test(value.slice(i, i + 6)) && /\s/.test(ch ?? "")) {
      const match = /^\s+and\s+/i.exec(value.slice(i))!;
      names.push(value.slice(start, i));
      i += match[0].length - 1;
      start = i + 1;
    }
  }
  names.push(value.slice(start));
  return names.map(latexToText).filter((name) => name.length > 0 && name.toLowerCase() !== "others");
}

/** A hand-written BibTeX reader: entries with braced, quoted, numeric and macro values joined by `#`. */
class BibReader {
  private pos = 0;
  private readonly macros = new Map<string, string>(MONTHS.map((m, i) => [m, String(i + 1)]));
  readonly entries: BibEntry[] = [];
  readonly problems: { line: number; message: string }[] = [];

  constructor(private readonly text: string) {}

  read(): void {
    for (;;) {
      const at = this.text.indexOf("@", this.pos);
      if (at < 0) return;
      this.pos = at + 1;
      const line = this.lineAt(at);
      try {
        this.entry(line);
      } catch (error) {
        this.problems.push({ line, message: (error as Error).message });
        // Resume at the next line starting with "@".
        const next = this.text.slice(at + 1).search(/\n\s*@/);
        this.pos = next < 0 ? this.text.length : at + 1 + next + 1;
      }
    }
  }

  private lineOffset = 0;
  private line = 1;

  /** The line of an offset; offsets are asked in increasing order, so counting resumes where it stopped. */
  private lineAt(offset: number): number {
    for (; this.lineOffset < offset; this.lineOffset++)
      if (this.text.charCodeAt(this.lineOffset) === 10) this.line++;
    return this.line;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  private identifier(): string {
    const match = /^[^\s"#%'(),={}]+/.exec(this.text.slice(this.pos, this.pos + 200));
    if (!match) throw new Error(`expected a name at ${this.describe()}`);
    this.pos += match[0].length;
    return match[0];
  }

  private describe(): string {
    const near = this.text.slice(this.pos, this.pos + 20).replace(/\s+/g, " ");
    return near ? `"${near}"` : "end of file";
  }

  private expect(chars: string): string {
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === undefined || !chars.includes(ch))
      throw new Error(`expected ${chars.split("").join(" or ")} at ${this.describe()}`);
    this.pos++;
    return ch;
  }

  /** A braced group starting at `pos` (on the "{"), returned without its outer braces. */
  private braced(): string {
    let depth = 0;
    const start = this.pos;
    // As BibTeX does, every brace counts, escaped or not.
    for (; this.pos < this.text.length; this.pos++) {
      const ch = this.text[this.pos];
      if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        this.pos++;
        return this.text.slice(start + 1, this.pos - 1);
      }
    }
    throw new Error("unbalanced braces");
  }

  private quotedValue(): string {
    let depth = 0;
    const start = ++this.pos;
    for (; this.pos < this.text.length; this.pos++) {
      const ch = this.text[this.pos];
      if (ch === "{") depth++;
      else if (ch === "}") depth--;
      else if (ch === '"' && depth === 0) return this.text.slice(start, this.pos++);
    }
    throw new Error("unterminated quoted value");
  }

  /** A field value: braced, quoted, numeric or macro parts joined by "#". Unknown macros read as their name. */
  private value(): string {
    let result = "";
    for (;;) {
      this.skipSpace();
      const ch = this.text[this.pos];
      if (ch === "{") result += this.braced();
      else if (ch === '"') result += this.quotedValue();
      else if (ch !== undefined && /\d/.test(ch)) {
        const digits = /^\d+/.exec(this.text.slice(this.pos, this.pos + 50))![0];
        this.pos += digits.length;
        result += digits;
      } else {
        const name = this.identifier();
        result += this.macros.get(name.toLowerCase()) ?? name;
      }
      this.skipSpace();
      if (this.text[this.pos] !== "#") return result;
      this.pos++;
    }
  }

  private entry(line: number): void {
    const type = this.identifier().toLowerCase();
    const open = this.expect("{(");
    const close = open === "{" ? "}" : ")";
    if (type === "comment" || type === "preamble") {
      this.pos--;
      if (open === "{") this.braced();
      else this.pos = this.text.indexOf(")", this.pos) + 1 || this.text.length;
      return;
    }
    if (type === "string") {
      this.skipSpace();
      const name = this.identifier().toLowerCase();
      this.expect("=");
      this.macros.set(name, this.value());
      this.expect(close);
      return;
    }
    this.skipSpace();
    const key = this.identifier();
    const fields: Record<string, string> = {};
    for (;;) {
      const separator = this.expect(`,${close}`);
      if (separator === close) break;
      this.skipSpace();
      if (this.text[this.pos] === close) {
        this.pos++;
        break;
      }
      const name = this.identifier().toLowerCase();
      this.expect("=");
      fields[name] = this.value();
    }
    this.entries.push({ type, key, fields, line });
  }
}

/**
 * Reads a BibTeX file. An entry that cannot be read is reported with its line and skipped; the others are
 * returned. `@string` macros and month names are expanded, `@comment` and `@preamble` skipped. Field values keep
 * their LaTeX (turn it into text with {@link latexToText}).
 */
export function parseBibtex(text: string): BibFile {
  const reader = new BibReader(text);
  reader.read();
  return { entries: reader.entries, problems: reader.problems };
}
