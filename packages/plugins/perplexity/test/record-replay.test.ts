import { createCatalog } from "@quiver/core";
import { type Emulator, recordThenReplay, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPerplexityPlugin } from "../src/index.js";
import { routePerplexity } from "./perplexity-upstream.js";

/** The key the recording runs with (a canary): it must never appear in a cassette. */
const CANARY = "pplx-canary-0d9e8f7a6b5c";
const TOOL = "perplexity_search_web";
const session = { session: { id: "s1", principal: "alice@example.org" } };

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  routePerplexity(up, CANARY);
});
afterAll(() => up.close());

describe("Perplexity tool calls recorded and replayed (core's cassette client)", () => {
  for (const api of ["search", "chat"] as const) {
    it(`${api} API: replay with the network closed gives the recorded envelopes; no key in a cassette`, async () => {
      const r = await recordThenReplay({
        emulator: up,
        calls: [
          {
            tool: TOOL,
            input: { query: "What is the population of San Francisco?", max_results: 2 },
            options: session,
          },
          { tool: TOOL, input: { query: "Latest Node.js release", recency: "week" }, options: session },
        ],
        catalog: (http) => {
          // Replay runs with a placeholder key: the recorded requests carry none to compare with.
          const catalog = createCatalog({ http, env: { PERPLEXITY_API_KEY: CANARY } });
          catalog.register(createPerplexityPlugin({ api }), { baseUrl: up.url });
          return catalog;
        },
      });
      expect(r.live.map((e) => e.status)).toEqual(["success", "success"]);
      expect(r.replayed).toEqual(r.live);
      expect(r.upstreamRequestsDuringReplay).toBe(0);
      expect(r.cassettes.length).toBe(r.live.length);
      for (const { text } of r.cassettes) {
        expect(text).not.toContain(CANARY);
        expect(text).toContain('"authorization": "[REDACTED]"');
        expect(text).not.toContain("alice@example.org");
      }
    });
  }
});
