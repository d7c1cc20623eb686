// The conformance suite run on a small well-behaved plugin that talks to the emulator, so the suite
// itself is exercised end to end (examples, garbage, upstream down) on every CI run.
import { definePlugin, defineToolWith } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { describePluginConformance } from "../../src/conformance/describe-plugin-conformance.js";
import { assertEnvelope } from "../../src/conformance/envelope-schema.js";
import { closedUrl } from "../../src/emulator/closed-url.js";
import { type Emulator, startEmulator } from "../../src/emulator/start-emulator.js";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  up.route("GET", "/greet", (req) => ({ json: { text: `hello ${req.query.get("name") ?? ""}` } }));
});
afterAll(() => up.close());

const tool = defineToolWith<{ baseUrl: string }>();
const greet = tool({
  name: "greet",
  description: "Greets someone by name. Use to test the conformance suite.",
  category: "computational_service",
  input: z.object({ name: z.string().min(1).describe("Who to greet") }),
  output: z.object({ text: z.string() }),
  examples: [{ input: { name: "Ada" } }],
  annotations: { readOnly: true, openWorld: true },
  policy: { timeout: "2s", retry: { times: 1, base: "10ms" } },
  run: ({ name }, ctx) =>
    ctx.http.json({
      url: `${ctx.config.baseUrl}/greet`,
      query: { name },
      signal: ctx.signal,
      schema: z.object({ text: z.string() }),
    }),
});
const plugin = definePlugin({
  specificationVersion: "v1",
  id: "greeter",
  version: "1.0.0",
  config: z.object({ baseUrl: z.string().url() }),
  tools: [greet],
});

describePluginConformance(plugin, {
  options: () => ({ baseUrl: up.url }),
  downOptions: async () => ({ baseUrl: await closedUrl() }),
});

describe("assertEnvelope", () => {
  it("rejects a failure without an error and accepts a proper one", () => {
    const metadata = {
      tool: "t",
      plugin: "p",
      callId: "c",
      durationMs: 1,
      attempts: 1,
      cached: false,
      truncated: false,
    };
    expect(() => assertEnvelope({ status: "error", message: "x", metadata })).toThrow(/needs an error/);
    expect(() => assertEnvelope({ status: "success", message: "ok", data: 1, metadata })).not.toThrow();
  });
});
