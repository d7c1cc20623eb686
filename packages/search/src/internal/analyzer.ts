import { porterStem } from "./porter.js";
import { STOP_WORDS } from "./stop-words.js";

/**
 * Bumped whenever `analyze` changes the terms it produces: an index built with another version must be rebuilt,
 * because its stored terms would no longer match the query terms.
 */
export const ANALYZER_VERSION = 1;

/** Longest term kept; longer runs of letters are almost always junk (hashes, base64, URLs). */
const MAX_TERM_LENGTH = 64;

/**
 * A word: letters and digits (with their combining marks), optionally joined by apostrophes
 * ("Alzheimer's", "O'Brien").
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['’][\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*/gu;

/** Greek letters are spelt out, so "TNF-α" and "TNF-alpha" meet. */
const GREEK: Readonly<Record<string, string>> = {
  α: "alpha",
  β: "beta",
  γ: "gamma",
  δ: "delta",
  ε: "epsilon",
  ϵ: "epsilon",
  ζ: "zeta",
  η: "eta",
  θ: "theta",
  ι: "iota",
  κ: "kappa",
  λ: "lambda",
  μ: "mu",
  ν: "nu",
  ξ: "xi",
  ο: "omicron",
  π: "pi",
  ρ: "rho",
  σ: "sigma",
  ς: "sigma",
  τ: "tau",
  υ: "upsilon",
  φ: "phi",
  ϕ: "phi",
  χ: "chi",
  ψ: "psi",
  ω: "omega",
};

/** Latin letters that Unicode does not decompose, folded as Lucene's ASCIIFoldingFilter does. */
const LATIN: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

const SPECIAL = /[α-ωϵϕßæœøłđðþı]/u;

/** Lowercases, removes diacritics, folds special letters and splits a word into its term candidates. */
function fold(word: string): string[] {
  let w = word.toLowerCase();
  // Possessive 's is dropped (English possessive filter); other apostrophes join ("o'brien" -> "obrien").
  w = w.replace(/['’]s$/u, "").replace(/['’]/gu, "");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: testing for ASCII
  if (/^[\x00-\x7f]*$/.test(w)) return [w];
  w = w.normalize("NFKD").replace(/\p{M}+/gu, "");
  if (!SPECIAL.test(w)) return [w];
  const parts: string[] = [];
  let current = "";
  for (const ch of w) {
    const greek = GREEK[ch];
    if (greek !== undefined) {
      if (current) parts.push(current);
      parts.push(greek);
      current = "";
    } else current += LATIN[ch] ?? ch;
  }
  if (current) parts.push(current);
  return parts;
}

/** Terms of each word seen, bounded: texts repeat their words, so most lookups hit. */
const cache = new Map<string, readonly string[]>();
const CACHE_SIZE = 200_000;

function termsOf(word: string): readonly string[] {
  let terms = cache.get(word);
  if (terms === undefined) {
    const fresh: string[] = [];
    for (const part of fold(word)) {
      if (part.length === 0 || part.length > MAX_TERM_LENGTH || STOP_WORDS.has(part)) continue;
      fresh.push(porterStem(part));
    }
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(word, fresh);
    terms = fresh;
  }
  return terms;
}

/**
 * The index terms of a text, in order, repeated as they occur. The index and the queries go through this one
 * function, so they always agree.
 */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(WORD)) {
    for (const term of termsOf(match[0])) terms.push(term);
  }
  return terms;
}

/**
 * Character ranges of the words of `text` that yield one of `terms`, for highlighting. Words whose first
 * letter cannot start any of the terms are skipped without analysis: stemming and folding keep an ASCII word's
 * first letter, and other words are always analysed.
 */
export function matchingWords(text: string, terms: ReadonlySet<string>): { start: number; end: number }[] {
  const initials = new Set<number>();
  for (const term of terms) initials.add(term.charCodeAt(0));
  const ranges: { start: number; end: number }[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    let first = word.charCodeAt(0);
    if (first >= 65 && first <= 90) first += 32;
    if (first < 128 && !initials.has(first)) continue;
    if (termsOf(word).some((term) => terms.has(term))) {
      ranges.push({ start: match.index, end: match.index + word.length });
    }
  }
  return ranges;
}
