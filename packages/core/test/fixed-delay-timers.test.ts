import { describe, expect, it } from "vitest";
import { FixedDelayTimers, type TimerHost } from "../src/policies/fixed-delay-timers.js";

/** A timer host whose time moves only when the test says: the one pending Node timer, by hand. */
const manualHost = () => {
  let now = 0;
  let pending: { due: number; fire: () => void } | undefined;
  const host: TimerHost = {
    now: () => now,
    setTimeout: (fire, ms) => {
      pending = { due: now + ms, fire };
      return { ref: () => undefined, unref: () => undefined };
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    while (pending && pending.due <= until) {
      const { due, fire } = pending;
      pending = undefined;
      now = due;
      fire();
    }
    now = until;
  };
  return { host, advance };
};

describe("FixedDelayTimers", () => {
  it("fires each timer once at its delay, in the order armed, and never a cancelled one", () => {
    const { host, advance } = manualHost();
    const timers = new FixedDelayTimers(100, host);
    const fired: string[] = [];
    timers.after(() => fired.push("a"));
    advance(30);
    const cancelB = timers.after(() => fired.push("b"));
    advance(30);
    timers.after(() => fired.push("c"));
    cancelB();
    advance(39);
    expect(fired).toEqual([]);
    advance(1);
    expect(fired).toEqual(["a"]);
    advance(59);
    expect(fired).toEqual(["a"]);
    advance(1);
    expect(fired).toEqual(["a", "c"]);
    advance(1_000);
    expect(fired).toEqual(["a", "c"]);
  });

  it("cancelling twice, or after firing, changes nothing", () => {
    const { host, advance } = manualHost();
    const timers = new FixedDelayTimers(10, host);
    const fired: string[] = [];
    const cancelA = timers.after(() => fired.push("a"));
    advance(10);
    cancelA();
    cancelA();
    const cancelB = timers.after(() => fired.push("b"));
    cancelB();
    cancelB();
    timers.after(() => fired.push("c"));
    advance(10);
    expect(fired).toEqual(["a", "c"]);
  });

  it("serves timers armed after the list ran empty", () => {
    const { host, advance } = manualHost();
    const timers = new FixedDelayTimers(10, host);
    const fired: string[] = [];
    timers.after(() => fired.push("a"));
    advance(10);
    timers.after(() => fired.push("b"));
    advance(10);
    expect(fired).toEqual(["a", "b"]);
  });
});
