import {
  type AnyPlugin,
  type CallOptions,
  type Catalog,
  createCatalog,
  parseToolInput,
  type ToolResult,
} from "@quiver/core";
import { describe, expect, it } from "vitest";
import { assertEnvelope } from "./envelope-schema.js";
import { walkSchema } from "./schema-walk.js";

/** Settings for a plugin: registration options (plugins with a config schema) or factory options. */
export type PluginSettings = Readonly<Record<string, unknown>>;

/**
 * What the suite checks: a plugin, or its `create<Name>Plugin(options)` factory. Give the factory when
 * the plugin has no config schema but takes settings (a base URL) as factory options: the suite calls it
 * with `options()` / `downOptions()`.
 */
export type PluginUnderTest = AnyPlugin | ((options?: PluginSettings) => AnyPlugin);

/** How the conformance suite runs a plugin. */
export interface ConformanceOptions {
  /** Settings under which the examples can run (e.g. `baseUrl` pointing at an emulator). */
  readonly options?: () => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
  /** Settings under which the upstream is down (e.g. `baseUrl` from `closedUrl()`). Omit for local-only plugins. */
  readonly downOptions?: () => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
  /** Environment for the plugin's settings (default: empty, so the machine's variables never leak in). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The session the calls run in (a principal for access-controlled plugins). */
  readonly session?: CallOptions["session"];
  /**
   * Tools with no required parameter that still refuse `{}` on purpose, each with why no default is
   * sensible (e.g. "one of sequence or uniprot_accession"): the `{}` check passes them over.
   */
  readonly needsArguments?: Readonly<Record<string, string>>;
  /** Statuses the examples may end in under `options` (default: success or partial). */
  readonly exampleStatuses?: ReadonlyArray<ToolResult["status"]>;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const GARBAGE: ReadonlyArray<unknown> = [
  null,
  42,
  "not json",
  [],
  { unexpected: { deeply: [1, 2, { nested: true }] } },
  { query: { $ne: null } },
];

/**
 * Why `settings` would be lost on `plugin`, or undefined when they are read: a plugin without a config
 * schema ignores registration options, so they must go to its factory instead.
 *
 * @example
 * unreadSettings(weatherPlugin, { baseUrl: "http://127.0.0.1:1" }, false) // "plugin weather has no config schema ..."
 */
export const unreadSettings = (
  plugin: AnyPlugin,
  settings: PluginSettings,
  viaFactory: boolean,
): string | undefined =>
  viaFactory || plugin.config !== undefined || Object.keys(settings).length === 0
    ? undefined
    : `plugin ${plugin.id} has no config schema, so the settings ${JSON.stringify(Object.keys(settings))} would be ignored: pass its factory (describePluginConformance(create<Name>Plugin, ...)) so they reach it as options, or drop them.`;

/**
 * A catalog with the plugin registered under `settings`: as registration options (the plugin's
 * config schema reads them) or, for a factory, as its options too. Throws when they would be ignored.
 */
export const registerForConformance = (
  source: PluginUnderTest,
  settings: PluginSettings,
  env: Readonly<Record<string, string | undefined>> = {},
): Catalog => {
  const viaFactory = typeof source === "function";
  const plugin = viaFactory ? source(settings) : source;
  const problem = unreadSettings(plugin, settings, viaFactory);
  if (problem) throw new Error(problem);
  const catalog = createCatalog({ env });
  catalog.register(plugin, plugin.config === undefined ? {} : settings);
  return catalog;
};

/**
 * The shared suite every plugin's tests call first: names and schemas valid for every provider,
 * every field described, examples valid and runnable, `{}` accepted by a tool with no required
 * parameter, and an envelope (never an exception) for
 * examples, garbage input, and a dead upstream. Works with and without a config schema on the plugin;
 * pass the `create<Name>Plugin` factory instead of an instance when settings must reach a plugin that
 * has none.
 *
 * @example
 * describePluginConformance(fdaPlugin, { options: () => ({ baseUrl: up.url }), downOptions: async () => ({ baseUrl: await closedUrl() }) })
 */
export const describePluginConformance = (
  source: PluginUnderTest,
  options: ConformanceOptions = {},
): void => {
  const plugin = typeof source === "function" ? source() : source;
  const catalogUnder = async (settings: ConformanceOptions["options"]) =>
    registerForConformance(source, (await settings?.()) ?? {}, options.env);
  describe(`conformance: plugin ${plugin.id}`, () => {
    it("declares the v1 shape: id, version, unique valid tool names, descriptions", () => {
      expect(plugin.specificationVersion).toBe("v1");
      expect(plugin.id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      expect(plugin.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(plugin.tools.length).toBeGreaterThan(0);
      const names = plugin.tools.map((t) => t.name);
      expect(new Set(names).size).toBe(names.length);
      for (const tool of plugin.tools) {
        expect(tool.name, tool.name).toMatch(NAME);
        expect(tool.description.length, `${tool.name} description`).toBeGreaterThanOrEqual(20);
        expect(tool.category, `${tool.name} category`).toBeTruthy();
      }
    });

    it("exports a valid schema for every provider target, every field described", async () => {
      const catalog = await catalogUnder(options.options);
      for (const target of ["mcp", "openai", "anthropic", "gemini"] as const) {
        for (const { name, parameters } of catalog.schemas(target)) {
          expect(parameters.type, `${target} ${name} root`).toBe("object");
          walkSchema(parameters, (node, path) => {
            if (path && !path.includes("<") && !path.endsWith("[]") && !path.endsWith("{}")) {
              expect(
                typeof node.description === "string" && node.description.length > 0,
                `${target} ${name}: field ${path} has no description`,
              ).toBe(true);
            }
            if (target === "openai" && node.type === "object" && node.properties) {
              expect(node.additionalProperties, `${name} ${path} additionalProperties`).toBe(false);
              expect([...((node.required as string[]) ?? [])].sort(), `${name} ${path} required`).toEqual(
                Object.keys(node.properties).sort(),
              );
            }
          });
          expect(JSON.stringify(parameters), `${target} ${name}`).not.toContain("$ref");
        }
      }
      await catalog.close();
    });

    it("every example input validates against its tool's schema", () => {
      for (const tool of plugin.tools) {
        expect(tool.examples?.length ?? 0, `${tool.name} needs at least one example`).toBeGreaterThan(0);
        for (const example of tool.examples ?? []) {
          const parsed = parseToolInput(tool.input, example.input, { repair: false });
          expect(
            parsed.ok,
            `${tool.name} example ${JSON.stringify(example.input)}: ${parsed.ok ? "" : parsed.message}`,
          ).toBe(true);
        }
      }
    });

    it("every example returns an envelope with usable data", async () => {
      const catalog = await catalogUnder(options.options);
      const allowed = options.exampleStatuses ?? ["success", "partial"];
      for (const tool of plugin.tools) {
        for (const example of tool.examples ?? []) {
          const result = await catalog.call(tool.name, example.input, {
            session: options.session ?? { id: "conformance", principal: "conformance" },
          });
          assertEnvelope(result);
          expect(
            allowed,
            `${tool.name} ${JSON.stringify(example.input)} → ${result.status}: ${result.message}`,
          ).toContain(result.status);
        }
      }
      await catalog.close();
    });

    it("a tool with no required parameter accepts {} (every default sensible)", async () => {
      const catalog = await catalogUnder(options.options);
      for (const tool of plugin.tools) {
        const schema = catalog.describe(tool.name, "mcp")?.inputSchema as
          | { required?: unknown[] }
          | undefined;
        if ((schema?.required?.length ?? 0) > 0 || options.needsArguments?.[tool.name]) continue;
        const result = await catalog.call(
          tool.name,
          {},
          {
            session: options.session ?? { id: "conformance", principal: "conformance" },
          },
        );
        expect(
          assertEnvelope(result).error?.kind,
          `${tool.name} {} → ${result.status}: ${result.message}`,
        ).not.toBe("invalid_input");
      }
      await catalog.close();
    });

    it("garbage input returns envelopes (invalid_input for non-objects), never an exception", async () => {
      const catalog = await catalogUnder(options.options);
      for (const tool of plugin.tools) {
        for (const garbage of GARBAGE) {
          const result = await catalog.call(tool.name, garbage, {
            session: options.session ?? { principal: "conformance" },
          });
          const envelope = assertEnvelope(result);
          // `null` may be read as "no arguments" (an empty object), which a tool without required fields accepts.
          if (garbage !== null && (typeof garbage !== "object" || Array.isArray(garbage))) {
            expect(envelope.error?.kind, `${tool.name} with ${JSON.stringify(garbage)}`).toBe(
              "invalid_input",
            );
          }
        }
      }
      await catalog.close();
    });

    // Only for plugins with an upstream: a local-only plugin gets no test here (not a skipped one).
    if (options.downOptions === undefined) return;
    it("with the upstream down, every example returns an envelope, not an exception", async () => {
      const catalog = await catalogUnder(options.downOptions);
      for (const tool of plugin.tools) {
        for (const example of (tool.examples ?? []).slice(0, 1)) {
          const result = await catalog.call(tool.name, example.input, {
            session: options.session ?? { principal: "conformance" },
          });
          assertEnvelope(result);
        }
      }
      await catalog.close();
    });
  });
};
