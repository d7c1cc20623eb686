// Settings declared once, in the config schema: the list `pluginSettings` derives from it, the
// variables a catalog reads, the options type, and the reserved slots checked and carried to the catalog.
import * as Redacted from "effect/Redacted";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  definePlugin,
  defineTool,
  type PluginOptions,
  pluginSettings,
  resolvePluginConfig,
  reveal,
  SPECIFICATION_VERSION,
  secret,
  setting,
} from "../src/index.js";

const schema = z.object({
  apiKey: secret({ env: "WEB_API_KEY" }).describe("The API key."),
  token: secret().optional(),
  baseUrl: setting(z.url().default("https://api.example.org"), { env: "WEB_BASE_URL" }).describe("Base URL."),
  maxResults: z.number().int().default(5),
  region: setting(z.string(), { env: "WEB_REGION" }),
});

const echo = defineTool({
  name: "web_echo",
  description: "Echoes its text. Use to test the connection.",
  category: "computational_service",
  input: z.object({ text: z.string().describe("Text to echo") }),
  output: z.object({ text: z.string() }),
  run: ({ text }) => ({ text }),
});

const plugin = definePlugin({ id: "web", version: "1.0.0", config: schema, tools: [echo] });

describe("pluginSettings", () => {
  it("lists each field with its variable, secrecy, requirement, default and description", () => {
    expect(pluginSettings(plugin)).toEqual([
      { field: "apiKey", env: "WEB_API_KEY", secret: true, required: true, description: "The API key." },
      { field: "token", secret: true, required: false },
      {
        field: "baseUrl",
        env: "WEB_BASE_URL",
        secret: false,
        required: false,
        default: "https://api.example.org",
        description: "Base URL.",
      },
      { field: "maxResults", secret: false, required: false, default: 5 },
      { field: "region", env: "WEB_REGION", secret: false, required: true },
    ]);
  });

  it("refuses a variable name no environment can hold", () => {
    expect(() => setting(z.string(), { env: "lower case" })).toThrow(/environment variable name/);
    expect(() => secret({ env: "" })).toThrow(/environment variable name/);
    expect(() => secret({ env: "OK_NAME_2" })).not.toThrow();
  });

  it("is empty without a config", () => {
    expect(pluginSettings({})).toEqual([]);
  });
});

describe("resolvePluginConfig with declared variables", () => {
  it("reads each setting's variable, names the missing ones, and lets options win", () => {
    const missing = resolvePluginConfig(plugin, {}, {});
    expect(missing).toMatchObject({ ok: false, missing: ["WEB_API_KEY", "WEB_REGION"] });
    if (!missing.ok) expect(missing.message).toContain("WEB_API_KEY is not set");
    const read = resolvePluginConfig(
      plugin,
      { region: "eu" },
      { WEB_API_KEY: "k-123456789", WEB_REGION: "us" },
    );
    if (!read.ok) throw new Error(read.message);
    expect(read.config.region).toBe("eu");
    expect(Redacted.value(read.config.apiKey)).toBe("k-123456789");
    expect(read.secrets.map((s) => Redacted.value(s))).toEqual(["k-123456789"]);
    expect(reveal(read.config.apiKey)).toBe("k-123456789");
    expect(reveal("plain")).toBe("plain");
  });

  it("leaves the base URL as given: the HTTP client joins it", () => {
    const read = resolvePluginConfig(
      plugin,
      {},
      { WEB_API_KEY: "k", WEB_REGION: "us", WEB_BASE_URL: "http://h/api/" },
    );
    expect(read.ok && read.config.baseUrl).toBe("http://h/api/");
  });
});

describe("PluginOptions", () => {
  it("is the partial input of the schema: a secret is a plain string", () => {
    expectTypeOf<PluginOptions<typeof schema>>().toEqualTypeOf<
      Readonly<{
        apiKey?: string;
        token?: string | undefined;
        baseUrl?: string | undefined;
        maxResults?: number | undefined;
        region?: string;
      }>
    >();
  });
});

describe("definePlugin", () => {
  it("assumes specification v1", () => {
    expect(plugin.specificationVersion).toBe(SPECIFICATION_VERSION);
  });

  it("refuses repeated slot names, aliases for tools it lacks, and views it does not declare", () => {
    const view = { name: "table", uri: "ui://web/table" as const, html: () => "<p></p>" };
    expect(() => definePlugin({ id: "web", version: "1.0.0", tools: [echo], views: [view, view] })).toThrow(
      /view "table" declared twice/,
    );
    expect(() =>
      definePlugin({
        id: "web",
        version: "1.0.0",
        tools: [echo],
        aliasSets: [{ name: "official", tools: [{ alias: "echo", tool: "web_missing" }] }],
      }),
    ).toThrow(/alias "echo" stands for "web_missing"/);
    expect(() =>
      definePlugin({ id: "web", version: "1.0.0", tools: [defineTool({ ...echo, view: "chart" })] }),
    ).toThrow(/view "chart", which the plugin does not declare/);
  });

  it("carries filled slots and tool slots to the catalog, and nothing for a plugin without them", async () => {
    const catalog = createCatalog({ env: {} });
    try {
      const view = { name: "table", uri: "ui://web/table" as const, html: () => "<p></p>" };
      const info = catalog.register(
        definePlugin({
          id: "web",
          version: "1.0.0",
          tools: [defineTool({ ...echo, task: "optional", view: "table" })],
          instructions: "Use web_echo to test the connection.",
          views: [view],
        }),
      );
      expect(info.slots).toEqual({ instructions: "Use web_echo to test the connection.", views: [view] });
      expect(catalog.list()[0]).toMatchObject({ name: "web_echo", task: "optional", view: "table" });
      catalog.unregister("web");
      const bare = catalog.register(definePlugin({ id: "bare", version: "1.0.0", tools: [echo] }));
      expect(bare.slots).toBeUndefined();
      expect(catalog.list()[0]).not.toHaveProperty("task");
    } finally {
      await catalog.close();
    }
  });
});
