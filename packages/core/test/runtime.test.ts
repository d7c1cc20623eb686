import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createCatalog, definePlugin, defineTool, fail } from "../src/index.js";
import { gate, makeProbe, makeTestClock } from "./fixtures.js";

describe("the call boundary never throws", () => {
  it("turns a thrown exception into internal, and the next call works", async () => {
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.throwWith.push(new TypeError("boom"));
    const first = await catalog.call("probe", { q: "a" });
    expect(first.status).toBe("error");
    expect(first.error?.kind).toBe("internal");
    expect(first.message).toContain("boom");
    const second = await catalog.call("probe", { q: "b" });
    expect(second.status).toBe("success");
    expect(second.data).toEqual({ echo: "b", run: 2 });
    await catalog.close();
  });

  it("answers invalid input with the field, what was expected and a suggestion", async () => {
    const { plugin, state } = makeProbe();
    const catalog = createCatalog();
    catalog.register(plugin);
    const result = await catalog.call("probe", { q: 42 });
    expect(result.status).toBe("error");
    expect(result.error?.kind).toBe("invalid_input");
    expect(result.message).toMatch(/q/);
    expect(result.suggestion).toBeTruthy();
    expect(state.runs).toBe(0);
    await catalog.close();
  });

  it("repairs common model quirks: stringified JSON, null optionals, numeric strings", async () => {
    const { plugin } = makeProbe();
    const catalog = createCatalog();
    catalog.register(plugin);
    const result = await catalog.call("probe", '{"q":"x","n":"5","who":null}');
    expect(result.status).toBe("success");
    await catalog.close();
  });

  it("answers an unknown tool with the closest names", async () => {
    const { plugin } = makeProbe();
    const catalog = createCatalog();
    catalog.register(plugin);
    const result = await catalog.call("prob", { q: "x" });
    expect(result.error?.kind).toBe("invalid_input");
    expect(result.suggestion).toContain('"probe"');
    await catalog.close();
  });

  it("returns a rejected promise of a non-Error as internal", async () => {
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.throwWith.push("a string");
    const result = await catalog.call("probe", { q: "x" });
    expect(result.error?.kind).toBe("internal");
    await catalog.close();
  });
});

describe("timeout and cancellation", () => {
  it("a hanging run yields timeout at the declared timeout, not before, and is aborted", async () => {
    const { plugin, state } = makeProbe({ timeout: "300ms", retry: false });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    state.delayMs = 60_000;
    let answered = false;
    const pending = catalog.call("probe", { q: "x" }).finally(() => {
      answered = true;
    });
    await time.advance(299);
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    await time.advance(1);
    const result = await pending;
    expect(result.status).toBe("timeout");
    expect(result.error?.kind).toBe("timeout");
    await vi.waitFor(() => expect(state.aborted).toBe(1));
    await catalog.close();
  });

  it("a run that finishes before its timeout is answered and its timer dropped", async () => {
    const { plugin } = makeProbe({ timeout: "300ms", retry: false });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    const result = await catalog.call("probe", { q: "x" });
    expect(result.status).toBe("success");
    await time.advance(1_000);
    expect((await catalog.call("probe", { q: "y" })).status).toBe("success");
    await catalog.close();
  });

  it("a caller's abort interrupts the run and still resolves with an envelope", async () => {
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.delayMs = 60_000;
    const controller = new AbortController();
    const pending = catalog.call("probe", { q: "x" }, { signal: controller.signal });
    await vi.waitFor(() => expect(state.runs).toBe(1));
    controller.abort();
    const result = await pending;
    expect(result.status).toBe("unavailable");
    expect(result.message).toMatch(/cancelled/);
    await vi.waitFor(() => expect(state.aborted).toBe(1));
    await catalog.close();
  });
});

describe("retry", () => {
  it("retries retryable failures of idempotent tools and reports the attempts", async () => {
    const { plugin, state } = makeProbe({ retry: { times: 3, base: "10ms" } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    state.failWith.push(fail.upstream("502"), fail.upstream("503"));
    const result = await time.advanceUntil(catalog.call("probe", { q: "x" }), 10);
    expect(result.status).toBe("success");
    expect(result.metadata.attempts).toBe(3);
    await catalog.close();
  });

  it("does not retry non-retryable kinds", async () => {
    const { plugin, state } = makeProbe({ retry: { times: 3, base: "10ms" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.failWith.push(fail.accessDenied("bad key"));
    const result = await catalog.call("probe", { q: "x" });
    expect(result.status).toBe("access_denied");
    expect(state.runs).toBe(1);
    await catalog.close();
  });

  it("does not retry tools that are not idempotent", async () => {
    const { plugin, state } = makeProbe({ retry: { times: 3, base: "10ms" } }, {
      readOnly: false,
      openWorld: true,
    } as never);
    const catalog = createCatalog();
    catalog.register(plugin);
    state.failWith.push(fail.upstream("502"));
    const result = await catalog.call("probe", { q: "x" });
    expect(result.error?.kind).toBe("upstream");
    expect(state.runs).toBe(1);
    await catalog.close();
  });

  it("waits at least Retry-After before retrying", async () => {
    const { plugin, state } = makeProbe({ retry: { times: 1, base: "10ms" } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    state.failWith.push(fail.rateLimited("slow down", { retryAfterMs: 400 }));
    const pending = catalog.call("probe", { q: "x" });
    await time.advance(399);
    await new Promise((r) => setImmediate(r));
    expect(state.runs).toBe(1);
    const result = await time.advanceUntil(pending, 10);
    expect(result.status).toBe("success");
    expect(state.runs).toBe(2);
    await catalog.close();
  });

  it("gives up when Retry-After is longer than the call may take", async () => {
    const { plugin, state } = makeProbe({ timeout: "1s", retry: { times: 3, base: "10ms" } });
    const catalog = createCatalog({ clock: (await makeTestClock()).clock });
    catalog.register(plugin);
    state.failWith.push(fail.rateLimited("slow down", { retryAfterMs: 5_000 }));
    const result = await catalog.call("probe", { q: "x" });
    expect(result.error?.kind).toBe("rate_limited");
    expect(state.runs).toBe(1);
    await catalog.close();
  });
});

describe("cache", () => {
  it("coalesces identical concurrent calls into one execution", async () => {
    const { plugin, state } = makeProbe({ cache: { ttl: "1m" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    const held = gate();
    state.hold = held.promise;
    const pending = Array.from({ length: 200 }, () => catalog.call("probe", { q: "same" }));
    held.open();
    const results = await Promise.all(pending);
    expect(state.runs).toBe(1);
    expect(results.every((r) => r.status === "success")).toBe(true);
    expect(results.filter((r) => !r.metadata.cached)).toHaveLength(1);
    const again = await catalog.call("probe", { q: "same" });
    expect(again.metadata.cached).toBe(true);
    expect(state.runs).toBe(1);
    await catalog.close();
  });

  it("a hit reports this call's attempts (none), not those of the run it reuses", async () => {
    const { plugin, state } = makeProbe({ cache: { ttl: "1m" }, retry: { times: 3, base: "10ms" } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    state.failWith.push(fail.upstream("502"));
    const first = await time.advanceUntil(catalog.call("probe", { q: "x" }), 10);
    expect(first.metadata).toMatchObject({ attempts: 2, cached: false });
    const hit = await catalog.call("probe", { q: "x" });
    expect(hit.metadata).toMatchObject({ attempts: 0, cached: true });
    expect(state.runs).toBe(2);
    await catalog.close();
  });

  it("never shares an entry between two principals", async () => {
    const { plugin, state } = makeProbe({ cache: { ttl: "1m" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    const alice = await catalog.call("probe", { q: "x" }, { session: { principal: "alice" } });
    const bob = await catalog.call("probe", { q: "x" }, { session: { principal: "bob" } });
    expect(state.runs).toBe(2);
    expect(alice.data).toMatchObject({ who: "alice" });
    expect(bob.data).toMatchObject({ who: "bob" });
    expect(bob.metadata.cached).toBe(false);
    await catalog.close();
  });

  it("does not cache failures", async () => {
    const { plugin, state } = makeProbe({ cache: { ttl: "1m" }, retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.failWith.push(fail.upstream("down"));
    expect((await catalog.call("probe", { q: "x" })).status).toBe("error");
    expect((await catalog.call("probe", { q: "x" })).status).toBe("success");
    await catalog.close();
  });

  it("the principal cannot be spoofed through the injected field", async () => {
    const { plugin } = makeProbe();
    const catalog = createCatalog();
    catalog.register(plugin);
    const result = await catalog.call("probe", { q: "x", who: "root" }, { session: { principal: "alice" } });
    expect(result.data).toMatchObject({ who: "alice" });
    const anonymous = await catalog.call("probe", { q: "x", who: "root" });
    expect(anonymous.data).not.toHaveProperty("who");
    await catalog.close();
  });
});

describe("context-injected parameters in default mode", () => {
  const subjectTool = (runs: string[]) =>
    defineTool({
      name: "subject_probe",
      description: "Echoes the subject it was called with, filled from the session when left out.",
      category: "computational_service",
      input: z.object({
        q: z.string().describe("Any text"),
        subject: z.string().min(1).optional().describe("The subject; the session's when left out"),
        who: z.string().optional().describe("The caller"),
      }),
      output: z.object({ subject: z.string().nullable(), who: z.string().nullable() }),
      policy: { cache: { ttl: "1m" } },
      inject: { subject: { from: "subject", mode: "default" }, who: { from: "principal" } },
      run: ({ subject, who }) => {
        runs.push(subject ?? "-");
        return { subject: subject ?? null, who: who ?? null };
      },
    });
  const open = () => {
    const runs: string[] = [];
    const catalog = createCatalog();
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "subj", version: "1.0.0", tools: [subjectTool(runs)] }),
    );
    return { catalog, runs };
  };
  const inSession = (subject: unknown, principal?: string) => ({
    session: { values: { subject }, ...(principal ? { principal } : {}) },
  });

  it("fills the field from the session when the input lacks it (absent, null or blank)", async () => {
    const { catalog } = await open();
    for (const input of [{ q: "x" }, { q: "x", subject: null }, { q: "x", subject: "  " }]) {
      const result = await catalog.call("subject_probe", input, inSession("metaheuristicas"));
      expect(result.status, JSON.stringify(input)).toBe("success");
      expect(result.data).toMatchObject({ subject: "metaheuristicas" });
    }
    await catalog.close();
  });

  it("the model's value wins over the session's", async () => {
    const { catalog } = await open();
    const result = await catalog.call(
      "subject_probe",
      { q: "x", subject: "mac" },
      inSession("metaheuristicas"),
    );
    expect(result.data).toMatchObject({ subject: "mac" });
    await catalog.close();
  });

  it("leaves the field out without a session value, or with one the field's schema rejects", async () => {
    const { catalog } = await open();
    for (const value of [undefined, "", { $ne: null }, 42]) {
      const result = await catalog.call("subject_probe", { q: "x" }, inSession(value));
      expect(result.status, String(value)).toBe("success");
      expect(result.data).toMatchObject({ subject: null });
    }
    await catalog.close();
  });

  it("override mode beside it is unchanged: the principal always wins and cannot be spoofed", async () => {
    const { catalog } = await open();
    const alice = await catalog.call("subject_probe", { q: "x", who: "root" }, inSession("a", "alice"));
    expect(alice.data).toMatchObject({ who: "alice", subject: "a" });
    const anonymous = await catalog.call("subject_probe", { q: "y", who: "root" }, inSession("a"));
    expect(anonymous.data).toMatchObject({ who: null });
    await catalog.close();
  });

  it("the cache key includes the filled value", async () => {
    const { catalog, runs } = await open();
    const first = await catalog.call("subject_probe", { q: "x" }, inSession("a"));
    const other = await catalog.call("subject_probe", { q: "x" }, inSession("b"));
    const again = await catalog.call("subject_probe", { q: "x" }, inSession("a"));
    const explicit = await catalog.call("subject_probe", { q: "x", subject: "a" }, inSession("b"));
    expect(runs).toEqual(["a", "b"]);
    expect([first, other, again, explicit].map((r) => r.metadata.cached)).toEqual([false, false, true, true]);
    expect(other.data).toMatchObject({ subject: "b" });
    await catalog.close();
  });
});

describe("fallback", () => {
  it("serves the last result marked stale when the tool fails", async () => {
    const { plugin, state } = makeProbe({ retry: false, fallback: { stale: true } });
    const catalog = createCatalog();
    catalog.register(plugin);
    await catalog.call("probe", { q: "x" });
    state.failWith.push(fail.unavailable("down"));
    const result = await catalog.call("probe", { q: "x" });
    expect(result.status).toBe("partial");
    expect(result.metadata.stale).toBe(true);
    expect(result.data).toMatchObject({ echo: "x", run: 1 });
    await catalog.close();
  });

  it("gives guidance when the tool is unavailable", async () => {
    const { plugin, state } = makeProbe({ retry: false, fallback: { guidance: "Use the textbook." } });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.failWith.push(fail.unavailable("down"));
    const result = await catalog.call("probe", { q: "x" });
    expect(result.status).toBe("unavailable");
    expect(result.guidance).toBe("Use the textbook.");
    await catalog.close();
  });
});

describe("escalation", () => {
  it("sets escalate on the second consecutive failure in one session, and resets on success", async () => {
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    const session = { id: "s1" };
    state.failWith.push(fail.unavailable("down"), fail.unavailable("down"), fail.unavailable("down"));
    const first = await catalog.call("probe", { q: "x" }, { session });
    expect(first.escalate).toBeUndefined();
    const other = await catalog.call("probe", { q: "x" }, { session: { id: "s2" } });
    expect(other.escalate).toBeUndefined();
    const second = await catalog.call("probe", { q: "x" }, { session });
    expect(second.escalate).toBe(true);
    expect(second.instruction).toMatch(/tell the user/);
    expect((await catalog.call("probe", { q: "x" }, { session })).status).toBe("success");
    state.failWith.push(fail.unavailable("down"));
    expect((await catalog.call("probe", { q: "x" }, { session })).escalate).toBeUndefined();
    await catalog.close();
  });
});

describe("circuit breaker and rate limit", () => {
  it("opens after consecutive upstream failures and answers unavailable without running", async () => {
    const { plugin, state } = makeProbe({ retry: false, breaker: { failures: 2, openFor: "1m" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.failWith.push(fail.upstream("500"), fail.upstream("500"));
    await catalog.call("probe", { q: "a" });
    await catalog.call("probe", { q: "b" });
    const rejected = await catalog.call("probe", { q: "c" });
    expect(rejected.status).toBe("unavailable");
    expect(rejected.error?.retryAfterMs).toBeGreaterThan(0);
    expect(state.runs).toBe(2);
    const stats = await catalog.stats();
    expect(stats.find((s) => s.tool === "probe")?.breaker).toBe("Open");
    await catalog.close();
  });

  it("answers rate_limited with the wait once the budget is spent", async () => {
    const { plugin, state } = makeProbe({ rateLimit: { limit: 2, window: "1m" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    await catalog.call("probe", { q: "a" });
    await catalog.call("probe", { q: "b" });
    const limited = await catalog.call("probe", { q: "c" });
    expect(limited.error?.kind).toBe("rate_limited");
    expect(limited.error?.retryAfterMs).toBeGreaterThan(0);
    expect(state.runs).toBe(2);
    await catalog.close();
  });
});

describe("output budget", () => {
  it("truncates long output and says so in message and metadata", async () => {
    const { plugin } = makeProbe({ maxOutputChars: 200 });
    const catalog = createCatalog();
    catalog.register(plugin);
    const result = await catalog.call("probe", { q: "y".repeat(1_000) });
    expect(result.status).toBe("success");
    expect(result.metadata.truncated).toBe(true);
    expect(result.message).toMatch(/truncated/);
    expect(JSON.stringify(result.data).length).toBeLessThanOrEqual(200);
    await catalog.close();
  });
});

describe("callMany and stats", () => {
  it("runs calls concurrently with a bound, one envelope each in order", async () => {
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    const held = gate();
    state.hold = held.promise;
    const pending = catalog.callMany(
      Array.from({ length: 8 }, (_, i) => ({ name: i === 3 ? "nope" : "probe", input: { q: String(i) } })),
      { concurrency: 4 },
    );
    // Four calls at once (one of the first four names no tool, so the fifth starts), then no more.
    await vi.waitFor(() => expect(state.running).toBe(4));
    held.open();
    const results = await pending;
    expect(results.map((r) => r.status)).toEqual([
      "success",
      "success",
      "success",
      "error",
      "success",
      "success",
      "success",
      "success",
    ]);
    expect(results[5]?.data).toMatchObject({ echo: "5" });
    expect(state.maxRunning).toBe(4);
    const [stats] = await catalog.stats();
    expect(stats).toMatchObject({ tool: "probe", calls: 7, successes: 7, failures: 0 });
    expect(stats?.p50Ms).toBeGreaterThan(0);
    await catalog.close();
  });
});
