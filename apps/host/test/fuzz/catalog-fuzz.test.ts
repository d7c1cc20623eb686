import { type Catalog, createCatalog, type ToolResult } from "@quiver/core";
import { assertEnvelope } from "@quiver/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closedUpstreamOptions,
  FUZZ_POLICIES,
  fuzzRuns,
  fuzzSeed,
  fuzzTimeout,
  PLUGIN_IDS,
  toolSchemas,
} from "./fuzz-setup.js";
import { nearValidFor } from "./schema-arbitrary.js";

/** The property every path checks: a well-formed envelope, and never the runtime's own failure. */
export const expectSoundEnvelope = (result: unknown): ToolResult => {
  const envelope = assertEnvelope(result) as ToolResult;
  if (envelope.error?.kind === "internal") throw new Error(`internal failure: ${envelope.message}`);
  return envelope;
};

let catalog: Catalog;
beforeAll(async () => {
  const options = await closedUpstreamOptions();
  catalog = createCatalog({ env: {}, policies: FUZZ_POLICIES });
  for (const id of PLUGIN_IDS) {
    const plugin = (await import(`@quiver/plugin-${id}`)).default;
    catalog.register(plugin, options[id]);
  }
});
afterAll(() => catalog?.close());

const runs = fuzzRuns("catalog");
const seed = fuzzSeed("catalog");

describe(`fuzzing every tool through the catalog (${runs} cases per tool, upstreams closed)`, () => {
  it("serves all eight plugins' tools", () => {
    expect(new Set(catalog.list().map((t) => t.plugin)).size).toBe(PLUGIN_IDS.length);
  });

  it(
    "answers every near-valid or arbitrary input with an envelope, never an exception or an internal failure",
    async () => {
      const tools = toolSchemas(catalog);
      const counts: Record<string, Record<string, number>> = {};
      for (const { name, schema } of tools) {
        const seen: Record<string, number> = {};
        counts[name] = seen;
        await fc.assert(
          // The catalog takes values, not text: nesting can go 100,000 levels deep here.
          fc.asyncProperty(nearValidFor(schema, { depths: [65, 1_000, 100_000] }), async (input) => {
            const envelope = expectSoundEnvelope(
              await catalog.call(name, input, { session: { id: "fuzz", principal: "fuzz" } }),
            );
            const key = envelope.error?.kind ?? envelope.status;
            seen[key] = (seen[key] ?? 0) + 1;
          }),
          { numRuns: runs, seed, endOnFailure: true },
        );
      }
      console.log(
        `[fuzz] catalog: ${tools.length} tools × ${runs} cases; outcomes per tool:\n${Object.entries(counts)
          .map(([tool, by]) => `  ${tool}: ${JSON.stringify(by)}`)
          .join("\n")}`,
      );
      // The inputs reached validation and past it: some were refused, some ran.
      const all = Object.values(counts).flatMap((by) => Object.keys(by));
      expect(all).toContain("invalid_input");
    },
    fuzzTimeout(runs, 3),
  );
});
