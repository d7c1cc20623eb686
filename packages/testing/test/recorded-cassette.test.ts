import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createCatalog, definePlugin, defineTool, type HttpClient, secret } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadCassette, routesFromCassette } from "../src/emulator/cassette.js";
import { type Emulator, startEmulator } from "../src/emulator/start-emulator.js";
import { recordThenReplay } from "../src/record/record-then-replay.js";

/** A plugin that sends its key as a query parameter, as openFDA's does. */
const lookup = definePlugin({
  specificationVersion: "v1",
  id: "lookup",
  version: "1.0.0",
  config: z.object({ baseUrl: z.string(), apiKey: secret() }),
  tools: [
    defineTool({
      name: "lookup_term",
      description: "Looks a term up (cassette format test tool).",
      category: "computational_service",
      input: z.object({ term: z.string() }),
      output: z.object({ hits: z.number() }),
      run: async ({ term }, ctx) => {
        // apiKey is the `Redacted` value secret() made; the client unwraps it and redacts it from failures.
        const { baseUrl, apiKey } = ctx.config as { baseUrl: string; apiKey: string };
        return ctx.http.json<{ hits: number }>({
          url: `${baseUrl}/terms`,
          query: { q: term, api_key: apiKey },
          signal: ctx.signal,
        });
      },
    }),
  ],
});

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
});
afterAll(() => up.close());

const catalogOn = (http?: HttpClient) => {
  const catalog = createCatalog({ env: {}, ...(http ? { http } : {}) });
  catalog.register(lookup, { baseUrl: up.url, apiKey: "real-key-1234" });
  return catalog;
};

describe("cassettes recorded by core's cassette client", () => {
  it("load here and the emulator serves them (a [REDACTED] key matches any key)", async () => {
    up.route("GET", "/terms", (req) => ({ json: { hits: (req.query.get("q") ?? "").length } }));
    const r = await recordThenReplay({
      emulator: up,
      calls: [{ tool: "lookup_term", input: { term: "aspirin" } }],
      catalog: (http) => catalogOn(http),
    });
    expect(r.replayed).toEqual(r.live);
    const [file] = readdirSync(join(r.dir, "lookup_term"));
    const cassette = loadCassette(join(r.dir, "lookup_term", file!));
    expect(cassette.interactions[0]?.url).toContain("api_key=[REDACTED]");

    up.reset();
    routesFromCassette(up, cassette);
    const catalog = catalogOn();
    const served = await catalog.call("lookup_term", { term: "aspirin" });
    await catalog.close();
    expect(served).toMatchObject({ status: "success", data: { hits: 7 } });
    expect(up.requests.map((q) => q.query.get("api_key"))).toEqual(["real-key-1234"]);
  });
});
