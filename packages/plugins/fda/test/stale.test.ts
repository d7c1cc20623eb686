import { createCatalog } from "@quiver/core";
import { type Emulator, makeTestClock } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFdaPlugin } from "../src/index.js";
import { session } from "./support/catalog.js";
import { startOpenFdaEmulator } from "./support/openfda-emulator.js";

let up: Emulator;
beforeAll(async () => {
  ({ up } = await startOpenFdaEmulator());
});
afterAll(async () => {
  await up.close();
});

describe("stale results while openFDA is down", () => {
  it("answers partial with the last good result, marked stale with its age", async () => {
    const time = await makeTestClock();
    const catalog = createCatalog({ env: {}, clock: time.clock });
    catalog.register(createFdaPlugin(), { baseUrl: up.url });
    try {
      const input = { search_criteria: { active_ingredient: "semaglutide" } };
      const fresh = await catalog.call("fda_search_drugs", input, session);
      expect(fresh.status, fresh.message).toBe("success");
      // Two hours later (past the one-hour cache), openFDA answers 503 to everything.
      await time.advance(2 * 3_600_000);
      up.fault("*", /.*/, { kind: "status", status: 503 });
      const r = await time.advanceUntil(catalog.call("fda_search_drugs", input, session), 100);
      expect(r.status, r.message).toBe("partial");
      expect(r.data).toEqual(fresh.data);
      expect(r.metadata.stale).toBe(true);
      expect(r.metadata.staleAgeMs).toBeGreaterThanOrEqual(2 * 3_600_000);
      expect(r.error?.kind).toBe("unavailable");
      expect(r.message).toMatch(/last known result/);
      // A question never answered before has nothing stale to give.
      const other = await time.advanceUntil(
        catalog.call("fda_search_drugs", { search_criteria: { active_ingredient: "tirzepatide" } }, session),
        100,
      );
      expect(other.status).toBe("unavailable");
      expect(other.error?.kind).toBe("unavailable");
      expect(other.metadata.stale).toBeUndefined();
    } finally {
      await catalog.close();
    }
  });
});
