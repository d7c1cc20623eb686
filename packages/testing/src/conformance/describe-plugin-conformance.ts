import { type AnyPlugin, type CallOptions, createCatalog, type ToolResult } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { assertEnvelope } from "./envelope-schema.js";
import { walkSchema } from "./schema-walk.js";

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
 * The shared suite every plugin's tests call first: names and schemas valid for every provider,
 * every field described, examples valid and runnable, and an envelope (never an exception) for
 * examples, garbage input, and a dead upstream.
 *
 * @example
 * describePluginConformance(fdaPlugin, { options: () => ({ baseUrl: up.url }), downOptions: async () => ({ baseUrl: await closedUrl() }) })
 */
export const describePluginConformance = (plugin: AnyPlugin, options: ConformanceOptions = {}): void => {
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
      const catalog = createCatalog({ env: options.env ?? {} });
      catalog.register(plugin, (await options.options?.()) ?? {});
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
          const parsed = tool.input.safeParse(example.input);
          expect(
            parsed.success,
            `${tool.name} example ${JSON.stringify(example.input)}: ${parsed.error?.message}`,
          ).toBe(true);
        }
      }
    });

    it("every example returns an envelope with usable data", async () => {
      const catalog = createCatalog({ env: options.env ?? {} });
      catalog.register(plugin, (await options.options?.()) ?? {});
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

    it("garbage input returns envelopes (invalid_input for non-objects), never an exception", async () => {
      const catalog = createCatalog({ env: options.env ?? {} });
      catalog.register(plugin, (await options.options?.()) ?? {});
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

    it.runIf(options.downOptions !== undefined)(
      "with the upstream down, every example returns an envelope, not an exception",
      async () => {
        const catalog = createCatalog({ env: options.env ?? {} });
        catalog.register(plugin, (await options.downOptions?.()) ?? {});
        for (const tool of plugin.tools) {
          for (const example of (tool.examples ?? []).slice(0, 1)) {
            const result = await catalog.call(tool.name, example.input, {
              session: options.session ?? { principal: "conformance" },
            });
            assertEnvelope(result);
          }
        }
        await catalog.close();
      },
    );
  });
};
