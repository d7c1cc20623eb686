import { describe, expect, it } from "vitest";
import { SessionTracker } from "../src/runtime/session-tracker.js";
import { StaleStore } from "../src/runtime/stale-store.js";

describe("the runtime's bounded memory", () => {
  it("the session tracker counts consecutive failures, resets on success and forgets the oldest pairs beyond its bound", () => {
    const sessions = new SessionTracker(2);
    expect(sessions.failed("alice\u0000s1", "t")).toBe(1);
    expect(sessions.failed("alice\u0000s1", "t")).toBe(2);
    sessions.succeeded("alice\u0000s1", "t");
    expect(sessions.failed("alice\u0000s1", "t")).toBe(1);
    sessions.failed("bob\u0000s1", "t");
    sessions.failed("carol\u0000s1", "t");
    expect(sessions.size).toBe(2);
    expect(sessions.failed("alice\u0000s1", "t")).toBe(1);
  });

  it("the stale store keeps the last result with its time, and at most its bound", () => {
    let now = 1_000;
    const stale = new StaleStore(2, () => now);
    stale.set("a", { v: 1 });
    now = 2_000;
    stale.set("a", { v: 2 });
    expect(stale.get("a")).toEqual({ data: { v: 2 }, at: 2_000 });
    stale.set("b", 1);
    stale.set("c", 1);
    expect(stale.get("a")).toBeUndefined();
    expect(stale.get("c")).toEqual({ data: 1, at: 2_000 });
  });
});
