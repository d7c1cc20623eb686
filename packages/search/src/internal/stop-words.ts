/**
 * English stop words removed from documents and queries: Lucene's classic `EnglishAnalyzer` list (33 words).
 * A short list on purpose: BM25's IDF already discounts frequent words, and a longer list (NLTK's 179 words)
 * ranked no better on SciFact. Stop words matter mostly for speed, and so that a query made only of them is
 * recognised as empty.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "but",
  "by",
  "for",
  "if",
  "in",
  "into",
  "is",
  "it",
  "no",
  "not",
  "of",
  "on",
  "or",
  "such",
  "that",
  "the",
  "their",
  "then",
  "there",
  "these",
  "they",
  "this",
  "to",
  "was",
  "will",
  "with",
]);
