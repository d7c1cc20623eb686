import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache.js";

describe("TtlCache", () => {
  it("expires entries after the ttl and evicts the least recently used beyond capacity", () => {
    let now = 0;
    const cache = new TtlCache<string>(1_000, 2, () => now);
    cache.set("a", "A");
    cache.set("b", "B");
    expect(cache.get("a")).toBe("A"); // a is now the most recent
    cache.set("c", "C");
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("A");
    now = 1_000;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it("keeps nothing with a ttl of 0", () => {
    const cache = new TtlCache<string>(0);
    cache.set("a", "A");
    expect(cache.get("a")).toBeUndefined();
  });
});
