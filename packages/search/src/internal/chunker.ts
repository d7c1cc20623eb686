import type { ChunkOptions } from "../types.js";

/** A piece of a text: its words `[start, end)` as character offsets into the original. */
export interface Chunk {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Number of words. */
  readonly words: number;
}

interface WordSpan {
  readonly start: number;
  readonly end: number;
  /** The word ends a sentence (or a paragraph). */
  readonly sentenceEnd: boolean;
}

/** Whitespace-separated words. */
const TOKEN = /\S+/g;
/** A word ending a sentence: terminal punctuation, optionally followed by closing quotes or brackets. */
const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;

function wordSpans(text: string): WordSpan[] {
  const matches = [...text.matchAll(TOKEN)];
  return matches.map((match, i) => {
    const start = match.index;
    const end = start + match[0].length;
    const next = matches[i + 1];
    if (next === undefined) return { start, end, sentenceEnd: true };
    // The gap after the word decides: a blank line ends a paragraph; terminal punctuation followed by a word
    // that does not start in lowercase ends a sentence ("e.g. the" does not).
    const blankLine = /\n[^\S\n]*\n/.test(text.slice(end, next.index));
    const punctuated = SENTENCE_END.test(match[0]) && !/^\p{Ll}/u.test(next[0]);
    return { start, end, sentenceEnd: blankLine || punctuated };
  });
}

/**
 * Splits a text into chunks of at most `size` words sharing up to `overlap` words with the previous one.
 * A chunk ends at the last sentence boundary of its second half when there is one, and the next chunk starts
 * at a sentence boundary inside the overlap when there is one, so chunks read as whole sentences where the
 * text allows. A text of at most `size` words is one chunk.
 */
export function chunkText(text: string, options: ChunkOptions): Chunk[] {
  const { size, overlap } = options;
  const spans = wordSpans(text);
  const n = spans.length;
  if (n === 0) return [];
  const chunks: Chunk[] = [];
  let from = 0;
  for (;;) {
    let to = Math.min(from + size, n);
    if (to < n) {
      // End after the last sentence end in the second half of the window, if any.
      for (let i = to - 1; i >= from + Math.ceil(size / 2) - 1; i--) {
        if (spans[i]!.sentenceEnd) {
          to = i + 1;
          break;
        }
      }
    }
    const first = spans[from]!;
    const last = spans[to - 1]!;
    chunks.push({
      text: text.slice(first.start, last.end),
      start: first.start,
      end: last.end,
      words: to - from,
    });
    if (to >= n) return chunks;
    // Start the next chunk `overlap` words back, moved forward to the first sentence start within the overlap.
    let next = Math.max(to - overlap, from + 1);
    for (let i = next; i < to; i++) {
      if (i === 0 || spans[i - 1]!.sentenceEnd) {
        next = i;
        break;
      }
    }
    from = next;
  }
}

/** Checks chunk options, returning a message for the first problem. */
export function chunkOptionsProblem(options: ChunkOptions): string | undefined {
  const { size, overlap } = options;
  if (!Number.isInteger(size) || size < 1) return `chunk.size must be a positive integer, got ${size}`;
  if (!Number.isInteger(overlap) || overlap < 0)
    return `chunk.overlap must be a non-negative integer, got ${overlap}`;
  if (overlap >= size) return `chunk.overlap (${overlap}) must be less than chunk.size (${size})`;
  return undefined;
}
