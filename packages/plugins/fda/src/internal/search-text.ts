/**
 * The characters openFDA accepts in `search`, and nothing else: its API server tests every search
 * against `SUPPORTED_QUERY_RE` (github.com/FDA/openfda, api/faers/elasticsearch_query.js) and answers
 * any other character (accents, `®`, `™`, `?`, `!`, `#`, `;`, tabs) with HTTP 400 "Search not supported".
 */
const REFUSED_BY_OPENFDA = /[^&0-9a-zA-Z@%/\\',._:()"[\]{}\-+><=* ]/g;

/**
 * Latin letters that Unicode decomposition leaves whole, spelt as English-language FDA text spells
 * them (capitals as the capitals of the same spelling). Written by hand: transliteration libraries
 * spell by language (German `ö` → `oe`), and FDA text writes `Sjogren`, not `Sjoegren`;
 * decomposition plus this short table gives that spelling.
 */
const ASCII_SPELLING: Readonly<Record<string, string | undefined>> = Object.fromEntries(
  "ß:ss æ:ae œ:oe ø:o đ:d ð:d þ:th ł:l ı:i".split(" ").map((pair) => pair.split(":")),
);

/** A letter of {@link ASCII_SPELLING} in ASCII, a capital in capitals; any other character a space. */
const spell = (c: string): string => {
  const lower = ASCII_SPELLING[c.toLowerCase()];
  return lower === undefined ? " " : c === c.toLowerCase() ? lower : lower.toUpperCase();
};

/**
 * Makes a user value safe inside an openFDA phrase (`field:"…"`) and acceptable to openFDA.
 *
 * - Accented and compatibility letters become their ASCII letters (`Sjögren` → `Sjogren`,
 *   full-width `Ａ` → `A`): openFDA accepts only ASCII letters in a search.
 * - Symbols (`®`, `™`, `©`, `°`) and any other character openFDA refuses become spaces, as do `"`
 *   (which would close the phrase) and `\` (which would escape the closing quote); the analyzer
 *   splits words on all of them anyway, so the match is unchanged.
 * - `AND`, `OR`, `+`, `:`, `(`, `)`, `*`, `[`, `]` stay literal text of the phrase. Whitespace is collapsed.
 *
 * @example
 * phraseText("Ozempic®") // "Ozempic"
 * phraseText("Sjögren's syndrome") // "Sjogren's syndrome"
 */
export const phraseText = (value: string): string =>
  value
    // Symbols first: compatibility decomposition would spell `™` as "TM" and `℃` as "°C".
    .replace(/[\p{So}\p{Sc}\p{Sk}]/gu, " ")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    // Typographic apostrophes and dashes: the analyzer keeps `crohn's` as one word, so `’` stays an apostrophe.
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u2010\u2011\u2013\u2014]/g, "-")
    .replace(/[^\x20-\x7e]/g, spell)
    .replace(REFUSED_BY_OPENFDA, " ")
    .replace(/["\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
