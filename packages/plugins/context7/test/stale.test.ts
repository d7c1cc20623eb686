import { createCatalog } from "@quiver/core";
import { type Emulator, makeTestClock, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext7Plugin } from "../src/index.js";
import { routeContext7 } from "./context7-upstream.js";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  routeContext7(up);
});
afterAll(async () => {
  await up.close();
});

const session = { session: { id: "s1", principal: "alice" } };

describe("stale results while Context7 is down", () => {
  it("answers partial with the last good result, marked stale with its age", async () => {
    const time = await makeTestClock();
    const catalog = createCatalog({ env: {}, clock: time.clock });
    catalog.register(createContext7Plugin(), { baseUrl: `${up.url}/api` });
    try {
      const input = { query: "how to use useEffect", library: "react" };
      const fresh = await catalog.call("context7_search_documentation", input, session);
      expect(fresh.status, fresh.message).toBe("success");
      // Past the cache's lifetime, Context7 answers 503 to everything.
      await time.advance(7 * 3_600_000);
      up.fault("*", /.*/, { kind: "status", status: 503 });
      const r = await time.advanceUntil(catalog.call("context7_search_documentation", input, session), 100);
      expect(r.status, r.message).toBe("partial");
      expect(r.data).toEqual(fresh.data);
      expect(r.metadata.stale).toBe(true);
      expect(r.metadata.staleAgeMs).toBeGreaterThanOrEqual(7 * 3_600_000);
      expect(r.error?.kind).toBe("unavailable"); // Context7 maps a 503 to unavailable
      expect(r.message).toMatch(/last known result/);
      // Another caller never got an answer: nothing stale for them.
      const bob = await time.advanceUntil(
        catalog.call("context7_search_documentation", input, { session: { id: "s2", principal: "bob" } }),
        100,
      );
      expect(bob.status).not.toBe("partial");
      expect(bob.metadata.stale).toBeUndefined();
    } finally {
      await catalog.close();
    }
  });
});
