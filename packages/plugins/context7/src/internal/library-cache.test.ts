import { makeTestClock } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { libraryCache } from "./library-cache.js";

const match = (id: string) => ({ id, title: id });

describe("libraryCache", () => {
  it("expires entries after the ttl on the catalog's clock and evicts the least recently used beyond max", async () => {
    const time = await makeTestClock();
    const cache = libraryCache(1_000, time.clock, 2);
    cache.set("a", match("/a"));
    cache.set("b", match("/b"));
    expect(cache.get("a")?.id).toBe("/a"); // a is now the most recent
    cache.set("c", match("/c"));
    expect(cache.get("b")).toBeUndefined();
    await time.advance(1_000);
    expect(cache.get("a")?.id).toBe("/a");
    await time.advance(1);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")).toBeUndefined();
  });

  it("keeps nothing with a ttl of 0", async () => {
    const time = await makeTestClock();
    const cache = libraryCache(0, time.clock);
    cache.set("a", match("/a"));
    expect(cache.get("a")).toBeUndefined();
  });
});
