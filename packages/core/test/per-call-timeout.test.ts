import { describe, expect, it } from "vitest";
import { createCatalog, DEFAULT_SESSION_ID, fail } from "../src/index.js";
import { gate, makeProbe, makeTestClock } from "./fixtures.js";

/** A probe (policy timeout 10 s) on a TestClock, and a run held until the test lets it go. */
const setup = async () => {
  const { plugin, state } = makeProbe({ retry: false, timeout: "10s" });
  const time = await makeTestClock();
  const catalog = createCatalog({ clock: time.clock });
  catalog.register(plugin);
  const held = gate();
  state.hold = held.promise;
  return { catalog, state, time, held };
};

describe("per-call timeout (CallOptions.timeoutMs)", () => {
  it("a call's own limit below the tool's maximum ends the call at that limit", async () => {
    const { catalog, time, held } = await setup();
    const started = time.now();
    const r = await time.advanceUntil(catalog.call("probe", { q: "x" }, { timeoutMs: 2_000 }), 100);
    expect(r.status).toBe("timeout");
    expect(r.message).toBe("probe did not finish within 2000 ms.");
    expect(time.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(time.now() - started).toBeLessThan(10_000);
    held.open();
    await catalog.close();
  });

  it("a limit above the tool's maximum is bounded by it (the policy timeout)", async () => {
    const { catalog, time, held } = await setup();
    const started = time.now();
    const r = await time.advanceUntil(catalog.call("probe", { q: "x" }, { timeoutMs: 300_000 }), 500);
    expect(r.status).toBe("timeout");
    expect(r.message).toBe("probe did not finish within 10000 ms.");
    expect(time.now() - started).toBeLessThan(300_000);
    held.open();
    await catalog.close();
  });

  it("each call has its own limit: a short one does not shorten another's", async () => {
    const { catalog, time, held } = await setup();
    const short = catalog.call("probe", { q: "a" }, { timeoutMs: 1_000 });
    const long = catalog.call("probe", { q: "b" });
    expect((await time.advanceUntil(short, 100)).status).toBe("timeout");
    held.open();
    expect((await time.advanceUntil(long, 100)).status).toBe("success");
    await catalog.close();
  });

  it("refuses a limit that is not a positive number with invalid_input, before running", async () => {
    const { catalog, state, held } = await setup();
    held.open();
    for (const bad of [0, -5, Number.NaN, "5000" as unknown as number]) {
      const r = await catalog.call("probe", { q: "x" }, { timeoutMs: bad });
      expect(r.error?.kind, String(bad)).toBe("invalid_input");
      expect(r.message).toMatch(/timeoutMs must be a positive number/);
    }
    expect(state.runs).toBe(0);
    expect((await catalog.call("probe", { q: "x" }, { timeoutMs: 5_000 })).status).toBe("success");
    await catalog.close();
  });
});

describe("escalation counts the tool's failures, per principal and session", () => {
  it("a model's mistakes (invalid_input, out_of_domain) never count", async () => {
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    const session = { session: { id: "s", principal: "alice" } };
    state.failWith.push(fail.outOfDomain("not a protein"), fail.outOfDomain("not a protein"));
    expect((await catalog.call("probe", { q: "x" }, session)).escalate).toBeUndefined();
    expect((await catalog.call("probe", { q: "x" }, session)).escalate).toBeUndefined();
    expect((await catalog.call("probe", { q: 5 }, session)).error?.kind).toBe("invalid_input");
    // One real failure after the mistakes is the first, not the fourth.
    state.failWith.push(fail.unavailable("down"));
    expect((await catalog.call("probe", { q: "x" }, session)).escalate).toBeUndefined();
    state.failWith.push(fail.unavailable("down"));
    expect((await catalog.call("probe", { q: "x" }, session)).escalate).toBe(true);
    await catalog.close();
  });

  it("one-shot calls without a session id count in the principal's default session", async () => {
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.failWith.push(...Array.from({ length: 4 }, () => fail.unavailable("down")));
    expect(
      (await catalog.call("probe", { q: "x" }, { session: { principal: "alice" } })).escalate,
    ).toBeUndefined();
    // Another principal's one-shot calls have their own default session.
    expect(
      (await catalog.call("probe", { q: "x" }, { session: { principal: "bob" } })).escalate,
    ).toBeUndefined();
    // The default session is the one named DEFAULT_SESSION_ID.
    const second = await catalog.call(
      "probe",
      { q: "x" },
      { session: { id: DEFAULT_SESSION_ID, principal: "alice" } },
    );
    expect(second.escalate).toBe(true);
    expect((await catalog.call("probe", { q: "x" })).escalate).toBeUndefined();
    await catalog.close();
  });
});
