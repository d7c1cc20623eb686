// The conformance suite on plugins without a config schema: a local one (the third-party weather
// fixture) and one that takes its upstream as a factory option, run against the emulator and a dead port.
import { definePlugin, defineTool } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  describePluginConformance,
  registerForConformance,
  unreadSettings,
} from "../../src/conformance/describe-plugin-conformance.js";
import { closedUrl } from "../../src/emulator/closed-url.js";
import { type Emulator, startEmulator } from "../../src/emulator/start-emulator.js";
import weather from "../fixtures/packages/quiver-plugin-weather/src/index.js";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  up.route("GET", "/ping", { json: { pong: true } });
});
afterAll(() => up.close());

/** A config-less plugin whose upstream is a factory option, as a third-party author may write it. */
const createPingPlugin = (options: { baseUrl?: string } = {}) =>
  definePlugin({
    specificationVersion: "v1",
    id: "ping",
    version: "1.0.0",
    tools: [
      defineTool({
        name: "ping_check_upstream",
        description: "Checks that the upstream answers. Use to test the conformance suite.",
        category: "computational_service",
        input: z.object({ note: z.string().optional().describe("Anything, echoed back") }),
        output: z.object({ pong: z.boolean() }),
        examples: [{ input: {} }],
        policy: { timeout: "2s", retry: false },
        run: (_input, ctx) =>
          ctx.http.json({
            url: `${options.baseUrl ?? "http://127.0.0.1:9"}/ping`,
            signal: ctx.signal,
            schema: z.object({ pong: z.boolean() }),
          }),
      }),
    ],
  });

describePluginConformance(weather);
describePluginConformance(createPingPlugin, {
  options: () => ({ baseUrl: up.url }),
  downOptions: async () => ({ baseUrl: await closedUrl() }),
});

describe("settings for a plugin without a config schema", () => {
  it("reach a factory as its options, and the examples hit the emulator", async () => {
    const before = up.requestsTo("GET", "/ping").length;
    const catalog = registerForConformance(createPingPlugin, { baseUrl: up.url });
    const result = await catalog.call("ping_check_upstream", {});
    await catalog.close();
    expect(result.status, result.message).toBe("success");
    expect(up.requestsTo("GET", "/ping").length).toBe(before + 1);
  });

  it("given with an instance are reported instead of silently ignored", () => {
    const plugin = createPingPlugin();
    expect(unreadSettings(plugin, {}, false)).toBeUndefined();
    expect(unreadSettings(plugin, { baseUrl: "x" }, true)).toBeUndefined();
    expect(() => registerForConformance(plugin, { baseUrl: up.url })).toThrow(
      'plugin ping has no config schema, so the settings ["baseUrl"] would be ignored: pass its factory (describePluginConformance(create<Name>Plugin, ...)) so they reach it as options, or drop them.',
    );
  });
});
