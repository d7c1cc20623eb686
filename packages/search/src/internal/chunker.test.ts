import { describe, expect, it } from "vitest";
import { chunkOptionsProblem, chunkText } from "./chunker.js";

/** n sentences of 10 words each: "S<i>w0 ... S<i>w9." */
const sentences = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${Array.from({ length: 10 }, (_, w) => `S${i}w${w}`).join(" ")}.`,
  ).join(" ");

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

describe("chunkText", () => {
  it("keeps a short text whole and returns nothing for a blank one", () => {
    expect(chunkText("  One short text.  ", { size: 50, overlap: 10 })).toEqual([
      { text: "One short text.", start: 2, end: 17, words: 3 },
    ]);
    expect(chunkText(" \n ", { size: 50, overlap: 10 })).toEqual([]);
  });

  it("splits at sentence ends with at most `size` words and overlaps by whole sentences", () => {
    const text = sentences(10); // 100 words
    const chunks = chunkText(text, { size: 35, overlap: 10 });
    for (const chunk of chunks) {
      expect(chunk.words).toBeLessThanOrEqual(35);
      expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text);
      expect(chunk.text).toMatch(/^S\d+w0 .*w9\.$/); // whole sentences
    }
    expect(chunks.map((c) => c.words)).toEqual([30, 30, 30, 30, 20]);
    // Each chunk starts with the last sentence of the previous one (10 words of overlap).
    for (let i = 1; i < chunks.length; i++) {
      const previous = wordsOf(chunks[i - 1]!.text);
      expect(wordsOf(chunks[i]!.text).slice(0, 10)).toEqual(previous.slice(-10));
    }
    // Every word is in some chunk.
    const covered = new Set(chunks.flatMap((c) => wordsOf(c.text)));
    for (const word of wordsOf(text)) expect(covered.has(word)).toBe(true);
  });

  it("cuts inside a sentence longer than a chunk and still overlaps by `overlap` words", () => {
    const text = Array.from({ length: 100 }, (_, i) => `w${i}`).join(" ");
    const chunks = chunkText(text, { size: 40, overlap: 8 });
    expect(chunks.map((c) => [wordsOf(c.text)[0], c.words])).toEqual([
      ["w0", 40],
      ["w32", 40],
      ["w64", 36],
    ]);
  });

  it("does not overlap with overlap 0, and treats blank lines as boundaries", () => {
    const text = "First paragraph without a full stop\n\nsecond paragraph here and more words";
    const chunks = chunkText(text, { size: 8, overlap: 0 });
    expect(chunks.map((c) => c.text)).toEqual([
      "First paragraph without a full stop",
      "second paragraph here and more words",
    ]);
  });

  it("does not end a sentence at an abbreviation followed by lowercase", () => {
    const text = "Cells e.g. neurons fire often. Glia do not fire at all.";
    const chunks = chunkText(text, { size: 8, overlap: 0 });
    expect(chunks[0]!.text).toBe("Cells e.g. neurons fire often.");
  });
});

describe("chunkOptionsProblem", () => {
  it("accepts sound options and explains bad ones", () => {
    expect(chunkOptionsProblem({ size: 300, overlap: 50 })).toBeUndefined();
    expect(chunkOptionsProblem({ size: 0, overlap: 0 })).toMatch(/size/);
    expect(chunkOptionsProblem({ size: 10, overlap: -1 })).toMatch(/overlap/);
    expect(chunkOptionsProblem({ size: 10, overlap: 10 })).toMatch(/less than/);
    expect(chunkOptionsProblem({ size: 10.5, overlap: 1 })).toMatch(/integer/);
  });
});
