import { describe, expect, it } from "vitest";
import { BoundedMap } from "../src/internal/bounded-map.js";

describe("BoundedMap", () => {
  it("forgets the least recently written key beyond its bound", () => {
    const m = new BoundedMap<string, number>(2);
    m.set("a", 1);
    m.set("b", 2);
    m.set("a", 3); // a is now the most recent
    m.set("c", 4);
    expect(m.get("b")).toBeUndefined();
    expect(m.get("a")).toBe(3);
    expect(m.get("c")).toBe(4);
    expect(m.size).toBe(2);
  });

  it("deletes", () => {
    const m = new BoundedMap<string, number>(5);
    m.set("a", 1);
    expect(m.delete("a")).toBe(true);
    expect(m.delete("a")).toBe(false);
    expect(m.size).toBe(0);
  });
});
