import { describe, expect, it } from "vitest";
import { memoryDriver } from "../src/index.js";

describe("memoryDriver", () => {
  it("is bounded by keys: past maxEntries the least recently used go first", () => {
    const store = memoryDriver({ maxEntries: 2 });
    store.set("a", "1", 60_000);
    store.set("b", "2", 60_000);
    expect(store.get("a")).toBe("1"); // a is now the most recently used
    store.set("c", "3", 60_000);
    expect([store.get("a"), store.get("b"), store.get("c")]).toEqual(["1", undefined, "3"]);
  });

  it("is bounded by characters: past maxChars the least recently used go first", () => {
    const store = memoryDriver({ maxChars: 10 });
    store.set("a", "x".repeat(6), 60_000);
    store.set("b", "y".repeat(6), 60_000);
    expect(store.get("a")).toBeUndefined();
    expect(store.get("b")).toBe("yyyyyy");
  });

  it("measures time to live on the clock it is given", () => {
    let now = 0;
    const store = memoryDriver({ now: () => now });
    store.set("k", "v", 1_000);
    now = 999;
    expect(store.get("k")).toBe("v");
    now = 1_001;
    expect(store.get("k")).toBeUndefined();
    expect(store.keys("")).toEqual([]);
  });

  it("answers at once, keeps private texts as they are and is always ok", () => {
    const store = memoryDriver();
    expect(store.set("k", "v", 1_000)).toBeUndefined();
    expect(store.get("k")).toBe("v");
    expect(store.key("alice\u0000token")).toBe("alice\u0000token");
    expect(store.status()).toEqual({ driver: "memory", state: "ok", outages: 0 });
  });
});
