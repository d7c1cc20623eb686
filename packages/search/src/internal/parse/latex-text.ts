// Written by hand: the parsers on npm that turn BibTeX's LaTeX into Unicode give rich text, not text
// (`@retorquere/bibtex-parser` writes Zotero's HTML subset, `<i>` for \emph and `¡` for `<`), and a search
// index wants the words. What a .bib file uses in practice is accents, escaped characters and groups.

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
