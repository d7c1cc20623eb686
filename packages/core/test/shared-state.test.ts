import { Redacted } from "effect";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog, definePlugin, defineTool, fail, memoryDriver, secret } from "../src/index.js";

const CANARY = "canary-secret-7f3a9c";

const makePlugin = (runs: { count: number }, failing: { on: boolean }) =>
  definePlugin({
    specificationVersion: "v1",
    id: "shared",
    version: "1.0.0",
    config: z.object({ apiKey: secret() }),
    tools: [
      defineTool({
        name: "echo_cached",
        description: "Echoes a word (cached).",
        category: "documentation",
        input: z.object({ word: z.string().describe("A word") }),
        output: z.object({ word: z.string(), by: z.string() }),
        policy: { cache: { ttl: "1 hour" }, fallback: { stale: true } },
        run: ({ word }, ctx) => {
          runs.count++;
          if (failing.on) throw fail.upstream("upstream down", { retryable: false });
          return {
            word,
            by: `${ctx.caller.principal ?? ""} ${Redacted.value((ctx.config as { apiKey: Redacted.Redacted<string> }).apiKey)}`,
          };
        },
      }),
      defineTool({
        name: "echo_stale",
        description: "Echoes a word (not cached; the last good answer when it fails).",
        category: "documentation",
        input: z.object({ word: z.string().describe("A word") }),
        output: z.object({ word: z.string() }),
        policy: { cache: false, retry: false, fallback: { stale: true } },
        run: ({ word }) => {
          runs.count++;
          if (failing.on) throw fail.upstream("upstream down", { retryable: true });
          return { word };
        },
      }),
      defineTool({
        name: "delete_thing",
        description: "Deletes a thing.",
        category: "private_repository",
        input: z.object({ id: z.string().describe("Thing id") }),
        output: z.object({ deleted: z.string() }),
        annotations: { destructive: true },
        run: ({ id }) => ({ deleted: id }),
      }),
    ],
  });

describe("state shared between replicas (two catalogs on one store)", () => {
  const twoReplicas = () => {
    // One memory driver for both: what two replicas on one Redis see, without Redis.
    const store = memoryDriver();
    const runs = { count: 0 };
    const failing = { on: false };
    const a = createCatalog({ store });
    const b = createCatalog({ store });
    a.register(makePlugin(runs, failing), { apiKey: CANARY });
    b.register(makePlugin(runs, failing), { apiKey: CANARY });
    return { a, b, store, runs, failing };
  };

  it("a result cached by one replica is served by another, per principal, with no secret in the values", async () => {
    const { a, b, store, runs } = twoReplicas();
    const alice = { session: { principal: "alice" } };
    const first = await a.call("echo_cached", { word: "hi" }, alice);
    expect(first.metadata.cached).toBe(false);
    // The miss answered once its result was in the store.
    expect(await store.keys("cache:")).toHaveLength(1);
    const second = await b.call("echo_cached", { word: "hi" }, alice);
    expect(second.status).toBe("success");
    expect(second.metadata.cached).toBe(true);
    expect(runs.count).toBe(1);
    const bob = await b.call("echo_cached", { word: "hi" }, { session: { principal: "bob" } });
    expect(bob.metadata.cached).toBe(false);
    expect(runs.count).toBe(2);
    expect(second.data).toEqual({ word: "hi", by: "alice [REDACTED]" });
    for (const key of await store.keys("")) {
      expect(key).not.toContain(CANARY);
      expect(await store.get(key)).not.toContain(CANARY);
    }
    await Promise.all([a.close(), b.close()]);
  });

  it("a confirmation token issued by one replica confirms on another, once", async () => {
    const { a, b } = twoReplicas();
    const who = { session: { principal: "alice" } };
    const preview = await a.call("delete_thing", { id: "x" }, who);
    const token = preview.confirmation?.token;
    expect(token).toBeTypeOf("string");
    const done = await b.call("delete_thing", { id: "x" }, { ...who, confirmationToken: token! });
    expect(done.status).toBe("success");
    const replay = await a.call("delete_thing", { id: "x" }, { ...who, confirmationToken: token! });
    expect(replay.status).toBe("partial");
    expect(replay.data).not.toEqual({ deleted: "x" });
    await Promise.all([a.close(), b.close()]);
  });

  it("escalation counts and the last good result follow the session across replicas", async () => {
    const { a, b, failing } = twoReplicas();
    const who = { session: { principal: "alice", id: "s1" } };
    await a.call("echo_cached", { word: "w" }, who);
    failing.on = true;
    // Another input: nothing cached, so the calls run and fail.
    const one = await a.call("echo_cached", { word: "v" }, who);
    expect(one.escalate ?? false).toBe(false);
    const two = await b.call("echo_cached", { word: "v" }, who);
    expect(two.escalate).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it("a tool that fails on one replica answers the last good result another replica got", async () => {
    const { a, b, failing } = twoReplicas();
    const who = { session: { principal: "alice" } };
    expect((await a.call("echo_stale", { word: "kept" }, who)).status).toBe("success");
    failing.on = true;
    const stale = await b.call("echo_stale", { word: "kept" }, who);
    expect(stale.status).toBe("partial");
    expect(stale.data).toEqual({ word: "kept" });
    expect(stale.metadata.stale).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });
});
