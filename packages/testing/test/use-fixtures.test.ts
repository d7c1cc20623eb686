import { type Catalog, definePlugin, defineToolWith } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator } from "../src/emulator/start-emulator.js";
import { useCatalog } from "../src/fixtures/use-catalog.js";
import { usePluginOnEmulator } from "../src/fixtures/use-plugin-on-emulator.js";

// Records each registration's close: a catalog's close runs its plugins' `onClose` finalizers.
const closed: string[] = [];
const tool = defineToolWith<{ baseUrl: string; label: string }>();
const ping = tool({
  name: "fix_ping",
  description: "Asks the emulated upstream for /ping. Use in tests.",
  category: "computational_service",
  input: z.object({}),
  output: z.object({ pong: z.boolean() }),
  run: (_input, ctx) =>
    ctx.http.json({
      url: `${ctx.config.baseUrl}/ping`,
      schema: z.object({ pong: z.boolean() }),
      signal: ctx.signal,
    }),
});
const plugin = definePlugin({
  specificationVersion: "v1",
  id: "fix",
  version: "1.0.0",
  config: z.object({ baseUrl: z.string(), label: z.string().default("one") }),
  tools: [ping],
  setup: ({ config, onClose }) => {
    onClose(() => void closed.push(config.label));
    return undefined;
  },
});

describe("useCatalog", () => {
  const makeCatalog = useCatalog({ env: {} });
  let first: Catalog | undefined;

  it("makes catalogs with the defaults under each call's options", async () => {
    first = makeCatalog();
    first.register(plugin, { baseUrl: "http://127.0.0.1:9", label: "first" });
    const r = await first.call("fix_ping", {});
    expect(r.status).toBe("unavailable");
    expect(closed).not.toContain("first");
  });

  it("closed the catalogs of the test before", () => {
    expect(closed).toContain("first");
  });
});

describe("usePluginOnEmulator", () => {
  const fix = usePluginOnEmulator({ plugin, start: () => startEmulator(), catalog: { env: {} } });
  const { up } = fix;

  it("hands out the emulator to destructure before it started", () => {
    expect(up.url).toBe(fix.up.url);
    expect(up.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("registers the plugin against the emulator", async () => {
    fix.up.route("GET", "/ping", { json: { pong: true } });
    const r = await fix.catalog({ label: "on-emulator" }).call("fix_ping", {});
    expect(r.status, r.message).toBe("success");
    expect(r.data).toEqual({ pong: true });
    expect(fix.up.requestsTo("GET", "/ping")).toHaveLength(1);
  });

  it("closed that catalog and cleared the emulator's faults after the test", async () => {
    expect(closed).toContain("on-emulator");
    fix.up.fault("GET", "/ping", { kind: "status", status: 503 });
    expect((await fix.catalog().call("fix_ping", {})).status).toBe("unavailable");
  });

  it("serves again once the fault is cleared", async () => {
    const r = await fix.catalog().call("fix_ping", {});
    expect(r.status, r.message).toBe("success");
  });

  it("takes other options over the emulator's URL", async () => {
    const r = await fix.catalog({ baseUrl: "http://127.0.0.1:9" }).call("fix_ping", {});
    expect(r.status).toBe("unavailable");
  });
});
