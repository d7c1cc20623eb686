import { createCatalog } from "@quiver/core";
import { type Emulator, makeTestClock, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPerplexityPlugin } from "../src/index.js";
import { routePerplexity } from "./perplexity-upstream.js";

const KEY = "pplx-test-7f3a9c2e1b4d6f8a";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  routePerplexity(up, KEY);
});
afterAll(async () => {
  await up.close();
});

const session = { session: { id: "s1", principal: "alice" } };

describe("stale results while Perplexity is down", () => {
  it("answers partial with the last good result, marked stale with its age", async () => {
    const time = await makeTestClock();
    const catalog = createCatalog({ env: { PERPLEXITY_API_KEY: KEY }, clock: time.clock });
    catalog.register(createPerplexityPlugin(), { baseUrl: up.url });
    try {
      const input = { query: "What is the current population of San Francisco?" };
      const fresh = await catalog.call("perplexity_search_web", input, session);
      expect(fresh.status, fresh.message).toBe("success");
      // Past the cache's lifetime, Perplexity answers 503 to everything.
      await time.advance(20 * 60_000);
      up.fault("*", /.*/, { kind: "status", status: 503 });
      const r = await time.advanceUntil(catalog.call("perplexity_search_web", input, session), 100);
      expect(r.status, r.message).toBe("partial");
      expect(r.data).toEqual(fresh.data);
      expect(r.metadata.stale).toBe(true);
      expect(r.metadata.staleAgeMs).toBeGreaterThanOrEqual(20 * 60_000);
      expect(r.error?.kind).toBe("unavailable");
      expect(r.message).toMatch(/last known result/);
      // Another caller never got an answer: nothing stale for them.
      const bob = await time.advanceUntil(
        catalog.call("perplexity_search_web", input, { session: { id: "s2", principal: "bob" } }),
        100,
      );
      expect(bob.status).not.toBe("partial");
      expect(bob.metadata.stale).toBeUndefined();
    } finally {
      await catalog.close();
    }
  });
});
