import { describe, expect, it } from "vitest";
import { closestMatches, editDistance } from "../index.js";

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
    expect(editDistance("flaw", "lawn")).toBe(2);
  });
});

describe("closestMatches", () => {
  const names = ["probe", "other_probe", "search", "prob_x"];

  it("answers the nearest candidates best first, at most `limit` (default 3)", () => {
    expect(closestMatches(names, "prob")).toEqual(["probe", "prob_x", "search"]);
    expect(closestMatches(names, "prob", { limit: 1 })).toEqual(["probe"]);
    expect(closestMatches(names, "prob", { limit: 0 })).toEqual([]);
  });

  it("keeps the candidates' order on ties", () => {
    expect(closestMatches(["bb", "ab", "ba"], "aa", { limit: 3 })).toEqual(["ab", "ba", "bb"]);
    expect(closestMatches(["ba", "ab"], "aa")).toEqual(["ba", "ab"]);
  });

  it("leaves out candidates farther than maxDistance", () => {
    expect(closestMatches(names, "prob", { maxDistance: 1 })).toEqual(["probe"]);
    expect(closestMatches(names, "zzzzzzzz", { maxDistance: 2 })).toEqual([]);
  });

  it("compares by `key`, so objects and case-insensitive matches work", () => {
    const items = [{ ref: "ann/notes" }, { ref: "ann/papers" }, { ref: "ben/notes" }];
    expect(closestMatches(items, "ann/note", { key: (i) => i.ref, limit: 1 })).toEqual([
      { ref: "ann/notes" },
    ]);
    expect(closestMatches(["Oral", "Topical"], "oral", { key: (c) => c.toLowerCase(), limit: 1 })).toEqual([
      "Oral",
    ]);
  });

  it("accepts any iterable and an empty one", () => {
    expect(closestMatches(new Set(["alpha", "beta"]), "alpa", { limit: 1 })).toEqual(["alpha"]);
    expect(closestMatches([], "x")).toEqual([]);
  });
});
