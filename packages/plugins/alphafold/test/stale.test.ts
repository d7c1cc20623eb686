import { createCatalog } from "@quiver/core";
import { type Emulator, makeTestClock } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlphafoldPlugin } from "../src/index.js";
import { startAfdbEmulator } from "./support/afdb-emulator.js";
import { at, session } from "./support/catalog.js";

let up: Emulator;
beforeAll(async () => {
  ({ up } = await startAfdbEmulator());
});
afterAll(async () => {
  await up.close();
});

describe("stale results while the structure services are down", () => {
  it("answers partial with the last good prediction, marked stale with its age", async () => {
    const time = await makeTestClock();
    const catalog = createCatalog({ env: {}, clock: time.clock });
    catalog.register(createAlphafoldPlugin(), at(up));
    try {
      const input = { uniprot_accession: "Q7Z6M3" };
      const fresh = await time.advanceUntil(catalog.call("alphafold_predict_structure", input, session), 100);
      expect(fresh.status, fresh.message).toBe("success");
      // Two days later (past the 24-hour cache), every service answers 503.
      await time.advance(2 * 86_400_000);
      up.fault("*", /.*/, { kind: "status", status: 503 });
      const r = await time.advanceUntil(catalog.call("alphafold_predict_structure", input, session), 100);
      expect(r.status, r.message).toBe("partial");
      expect(r.data).toEqual(fresh.data);
      expect(r.metadata.stale).toBe(true);
      expect(r.metadata.staleAgeMs).toBeGreaterThanOrEqual(2 * 86_400_000);
      expect(r.error).toBeDefined();
      expect(r.message).toMatch(/last known result/);
      // Another caller never got an answer: nothing stale for them.
      const bob = await time.advanceUntil(
        catalog.call("alphafold_predict_structure", input, { session: { id: "s2", principal: "bob" } }),
        100,
      );
      expect(bob.status).not.toBe("partial");
      expect(bob.metadata.stale).toBeUndefined();
    } finally {
      await catalog.close();
    }
  });
});
