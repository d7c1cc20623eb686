import { createCatalog, definePlugin, defineTool } from "@quiver/core";
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { trackCalls } from "../src/host/track-calls.js";

// The console's "recent calls" through a real catalog: newest first, bounded, with who, how it went,
// how long, attempts and cache, and nothing of the input or the data.
const say = defineTool({
  name: "say_word",
  description: "Says a word back; fails on 'boom'.",
  category: "computational_service",
  input: z.object({ word: z.string() }),
  output: z.object({ word: z.string() }),
  annotations: { readOnly: true, idempotent: true },
  policy: { cache: { ttl: "1m" }, retry: false },
  run: ({ word }) => {
    if (word === "boom") throw new Error("boom");
    return { word };
  },
});
const catalog = createCatalog();
catalog.register(definePlugin({ specificationVersion: "v1", id: "say", version: "1.0.0", tools: [say] }));
afterAll(() => catalog.close());

it("keeps the last 50 finished calls, newest first, with principal, status, attempts and cache", async () => {
  const tracked = trackCalls(catalog);
  await tracked.catalog.call("say_word", { word: "secret-input" }, { session: { principal: "alice" } });
  await tracked.catalog.call("say_word", { word: "secret-input" }, { session: { principal: "alice" } });
  await tracked.catalog.call("say_word", { word: "boom" }, { session: { principal: "bob" } });
  const [failed, hit, miss] = tracked.recent();
  expect(failed).toMatchObject({ tool: "say_word", principal: "bob", status: "error", cached: false });
  expect(failed?.kind).toBeTypeOf("string");
  expect(hit).toMatchObject({ principal: "alice", status: "success", cached: true });
  expect(miss).toMatchObject({ principal: "alice", status: "success", cached: false, attempts: 1 });
  expect(JSON.stringify(tracked.recent())).not.toContain("secret-input");
  for (let i = 0; i < 60; i++) await tracked.catalog.call("say_word", { word: `w${i}` });
  expect(tracked.recent()).toHaveLength(50);
  expect(tracked.recent()[0]?.at).toBeGreaterThanOrEqual(tracked.recent()[49]?.at ?? Infinity);
});
