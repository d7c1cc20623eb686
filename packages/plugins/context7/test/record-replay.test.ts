import { createCatalog } from "@quiver/core";
import { type Emulator, recordThenReplay, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext7Plugin } from "../src/index.js";
import { routeContext7 } from "./context7-upstream.js";

/** The key the recording runs with (a canary): it must never appear in a cassette. */
const CANARY = "ctx7sk-canary-4c1f9e2d7a";
const session = { session: { id: "s1", principal: "alice" } };

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  routeContext7(up);
});
afterAll(() => up.close());

describe("Context7 tool calls (HTTP API) recorded and replayed (core's cassette client)", () => {
  it("replay with the network closed gives the recorded envelopes; no key in a cassette", async () => {
    const r = await recordThenReplay({
      emulator: up,
      calls: [
        { tool: "context7_resolve_library_id", input: { library_name: "next.js", query: "middleware" } },
        { tool: "context7_search_documentation", input: { query: "routing", library: "react" } },
        { tool: "context7_get_library_docs", input: { library_id: "/vercel/next.js", query: "middleware" } },
        { tool: "context7_resolve_library_id", input: { library_name: "no-such-library-xyz" } },
      ].map((c) => ({ ...c, options: session })),
      catalog: (http) => {
        const catalog = createCatalog({ http, env: {} });
        catalog.register(createContext7Plugin(), { baseUrl: `${up.url}/api`, apiKey: CANARY });
        return catalog;
      },
    });
    // The last one: the library search answers with nothing, which the tool reports as an error.
    expect(r.live.map((e) => e.status)).toEqual(["success", "success", "success", "error"]);
    expect(r.replayed).toEqual(r.live);
    expect(r.upstreamRequestsDuringReplay).toBe(0);
    expect(r.cassettes.length).toBeGreaterThanOrEqual(3);
    for (const { text } of r.cassettes) expect(text).not.toContain(CANARY);
  });
});
