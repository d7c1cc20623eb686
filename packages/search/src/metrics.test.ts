import { describe, expect, it } from "vitest";
import { ndcgAt, recallAt } from "./metrics.js";

describe("ndcgAt", () => {
  it("matches a hand-computed case", () => {
    // Relevant: a (2), b (1), c (1). Ranking: x, a, c, y, b.
    // DCG@5 = 2/log2(3) + 1/log2(4) + 1/log2(6) = 1.26186 + 0.5 + 0.38685 = 2.14871
    // IDCG  = 2/log2(2) + 1/log2(3) + 1/log2(4) = 2 + 0.63093 + 0.5 = 3.13093
    const judged = new Map([
      ["a", 2],
      ["b", 1],
      ["c", 1],
      ["z", 0],
    ]);
    expect(ndcgAt(["x", "a", "c", "y", "b"], judged, 5)).toBeCloseTo(2.14871 / 3.13093, 4);
    // @2 only x and a count: (2/log2 3) / (2 + 1/log2 3) = 1.26186 / 2.63093
    expect(ndcgAt(["x", "a", "c", "y", "b"], judged, 2)).toBeCloseTo(1.26186 / 2.63093, 4);
  });

  it("is 1 for the ideal ranking and 0 without relevant documents", () => {
    const judged = new Map([
      ["a", 1],
      ["b", 1],
    ]);
    expect(ndcgAt(["b", "a", "c"], judged, 10)).toBe(1);
    expect(ndcgAt(["c", "d"], judged, 10)).toBe(0);
    expect(ndcgAt(["a"], new Map([["a", 0]]), 10)).toBe(0);
  });

  it("counts a document ranked twice once", () => {
    expect(ndcgAt(["a", "a", "b"], new Map([["b", 1]]), 10)).toBeCloseTo(1 / Math.log2(3), 10);
  });
});

describe("recallAt", () => {
  it("is the share of relevant documents in the first k", () => {
    const judged = new Map([
      ["a", 1],
      ["b", 1],
      ["c", 0],
    ]);
    expect(recallAt(["c", "a", "x"], judged, 100)).toBe(0.5);
    expect(recallAt(["c", "a", "b"], judged, 2)).toBe(0.5);
    expect(recallAt(["b", "a"], judged, 2)).toBe(1);
    expect(recallAt(["a"], new Map(), 10)).toBe(0);
  });
});
