import { type Catalog, createCatalog, definePlugin, defineTool, fail, secret } from "@quiver/core";
import { Redacted } from "effect";
import { createClient } from "redis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { redisStore } from "../src/index.js";
import {
  closedRedisUrl,
  deleteUnder,
  keysUnder,
  REDIS_URL,
  redisReachable,
  silentServer,
  uniquePrefix,
} from "./fixtures.js";

const up = await redisReachable();
if (!up) console.log(`skipped (shared state tests): Redis is not reachable at ${REDIS_URL}`);

const CANARY = "canary-Quiver-shared-9d2e";
const catalogs: Catalog[] = [];
const prefixes: string[] = [];

/** A plugin whose runs the test counts; `slow` holds each run until released. */
const makePlugin = () => {
  const state = { runs: 0, failing: false, gate: undefined as Promise<void> | undefined };
  const plugin = definePlugin({
    specificationVersion: "v1",
    id: "sharedprobe",
    version: "1.0.0",
    config: z.object({ apiKey: secret() }),
    tools: [
      defineTool({
        name: "lookup",
        description: "Looks a word up (cached an hour).",
        category: "documentation",
        input: z.object({ word: z.string().describe("A word") }),
        output: z.object({ word: z.string(), note: z.string() }),
        policy: { cache: { ttl: "1 hour" }, retry: false },
        run: async ({ word }, ctx) => {
          state.runs++;
          if (state.gate) await state.gate;
          if (state.failing) throw fail.upstream("the upstream answered 503", { retryable: false });
          const key = Redacted.value((ctx.config as { apiKey: Redacted.Redacted<string> }).apiKey);
          return { word, note: `for ${ctx.caller.principal ?? "nobody"} via ${key}` };
        },
      }),
      defineTool({
        name: "erase",
        description: "Erases a record.",
        category: "private_repository",
        input: z.object({ id: z.string().describe("Record id") }),
        output: z.object({ erased: z.string() }),
        annotations: { destructive: true },
        run: ({ id }) => ({ erased: id }),
      }),
    ],
  });
  return { plugin, state };
};

/** Two replicas (catalogs) sharing one Redis under a fresh prefix, and one probe state. */
const replicas = (url = REDIS_URL) => {
  const prefix = uniquePrefix("shared");
  prefixes.push(prefix);
  const { plugin, state } = makePlugin();
  const make = () => {
    const catalog = createCatalog({
      env: {},
      store: redisStore({ url, prefix, commandTimeout: "500 millis", log: () => {} }),
    });
    catalog.register(plugin, { apiKey: CANARY });
    catalogs.push(catalog);
    return catalog;
  };
  return { a: make(), b: make(), state, prefix };
};

const alice = { session: { principal: "alice", id: "conv-1" } };

afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  if (up) await Promise.all(prefixes.map((p) => deleteUnder(p)));
});

describe.skipIf(!up)("redisStore on the real Redis", () => {
  it("serves a result cached by one replica from another, per principal, with no secret in Redis", async () => {
    const { a, b, state, prefix } = replicas();
    expect((await a.call("lookup", { word: "ion" }, alice)).metadata.cached).toBe(false);
    // The miss answered once its result was in Redis.
    expect(await keysUnder(`${prefix}store:cache:`)).toHaveLength(1);
    const hit = await b.call("lookup", { word: "ion" }, alice);
    expect(hit.metadata.cached).toBe(true);
    expect(hit.data).toEqual({ word: "ion", note: "for alice via [REDACTED]" });
    expect(state.runs).toBe(1);
    // Another principal never gets alice's entry.
    expect((await b.call("lookup", { word: "ion" }, { session: { principal: "bob" } })).metadata.cached).toBe(
      false,
    );
    expect(state.runs).toBe(2);
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    try {
      const keys = await keysUnder(prefix);
      for (const key of keys) {
        expect(key).not.toContain(CANARY);
        expect(key).not.toContain("alice");
        expect(key).not.toContain("ion");
        // Each key is a namespace and a hash: `store:cache:<sha256>`, `store:failures:<sha256>`.
        expect(key.slice(prefix.length)).toMatch(/^store:[a-z]+:[\w-]{43}$/);
        const value = (await client.get(key)) ?? "";
        expect(value).not.toContain(CANARY);
        expect(await client.pTTL(key)).toBeGreaterThan(0);
      }
    } finally {
      client.destroy();
    }
  });

  it("runs identical calls on two replicas once (a short Redis lock)", async () => {
    const { a, b, state } = replicas();
    let release = () => {};
    state.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = a.call("lookup", { word: "lock" }, alice);
    await expect.poll(() => state.runs, { timeout: 10_000 }).toBe(1);
    const second = b.call("lookup", { word: "lock" }, alice);
    release();
    const [one, two] = await Promise.all([first, second]);
    expect(one.status).toBe("success");
    expect(two.status).toBe("success");
    expect(two.metadata.cached).toBe(true);
    expect(state.runs).toBe(1);
  });

  it("confirms on one replica a token issued by another, once", async () => {
    const { a, b } = replicas();
    const preview = await a.call("erase", { id: "r1" }, alice);
    const token = preview.confirmation?.token ?? "";
    expect(token).not.toBe("");
    const done = await b.call("erase", { id: "r1" }, { ...alice, confirmationToken: token });
    expect(done.status).toBe("success");
    expect(done.data).toEqual({ erased: "r1" });
    const replay = await a.call("erase", { id: "r1" }, { ...alice, confirmationToken: token });
    expect(replay.status).toBe("partial");
  });

  it("counts a session's failures across replicas (escalate after the second)", async () => {
    const { a, b, state } = replicas();
    state.failing = true;
    expect((await a.call("lookup", { word: "f" }, alice)).escalate ?? false).toBe(false);
    expect((await b.call("lookup", { word: "f" }, alice)).escalate).toBe(true);
  });
});

describe("redisStore with Redis down", () => {
  it("answers every call from the replica's own memory, without hanging", async () => {
    const { a, state } = replicas(await closedRedisUrl());
    expect((await a.call("lookup", { word: "x" }, alice)).status).toBe("success");
    expect((await a.call("lookup", { word: "x" }, alice)).metadata.cached).toBe(true);
    expect(state.runs).toBe(1);
    const preview = await a.call("erase", { id: "r2" }, alice);
    const done = await a.call(
      "erase",
      { id: "r2" },
      { ...alice, confirmationToken: preview.confirmation!.token },
    );
    expect(done.status).toBe("success");
  });

  it("answers within the command timeout when Redis accepts connections but never answers", async () => {
    const silent = await silentServer();
    try {
      const { a, state } = replicas(silent.url);
      const first = await a.call("lookup", { word: "hung" }, alice);
      expect(first.status).toBe("success");
      expect(state.runs).toBe(1);
      expect(silent.connections()).toBeGreaterThan(0);
    } finally {
      await silent.close();
    }
  });
});
