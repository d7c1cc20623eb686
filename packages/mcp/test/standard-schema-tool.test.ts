import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type Catalog, createCatalog, definePlugin, defineTool } from "@quiver/core";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { listen } from "./helpers.js";

type Envelope = { status: string; message: string; data?: unknown; error?: { kind: string } };

/** A tool whose schemas are valibot's, through Standard JSON Schema. */
const greet = defineTool({
  name: "valibot_greet",
  description: "Greets someone by name. Use to test a valibot tool.",
  category: "computational_service",
  input: toStandardJsonSchema(
    v.object({
      name: v.pipe(v.string(), v.minLength(1), v.description("Who to greet")),
      times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3)), 1),
      caller: v.optional(v.string()),
    }),
  ),
  output: toStandardJsonSchema(v.object({ greeting: v.string(), caller: v.optional(v.string()) })),
  inject: { caller: "principal" },
  examples: [{ input: { name: "Ada" } }],
  run: ({ name, times, caller }) => ({
    greeting: Array.from({ length: times }, () => `Hello, ${name}!`).join(" "),
    ...(caller ? { caller } : {}),
  }),
});

let catalog: Catalog;
let handler: McpHttpHandler;
let http: Awaited<ReturnType<typeof listen>>;
let client: Client;

beforeAll(async () => {
  catalog = createCatalog();
  catalog.register(
    definePlugin({ specificationVersion: "v1", id: "valibot", version: "1.0.0", tools: [greet] }),
  );
  handler = createMcpHttpHandler(catalog, { tokens: { "tok-abc": "alice" } });
  http = await listen((req, res) => void handler(req, res));
  client = new Client({ name: "valibot-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), {
      requestInit: { headers: { authorization: "Bearer tok-abc" } },
    }),
  );
});

afterAll(async () => {
  await client.close();
  await handler.close();
  await http.close();
  await catalog.close();
});

describe("a tool with valibot schemas over Streamable HTTP", () => {
  it("lists the valibot input as JSON Schema, the injected field hidden", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "valibot_greet");
    expect(tool?.inputSchema).toMatchObject({
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, description: "Who to greet" },
        times: { type: "integer", default: 1, minimum: 1, maximum: 3 },
      },
      required: ["name"],
    });
    expect(Object.keys(tool?.inputSchema.properties ?? {})).not.toContain("caller");
  });

  it("calls it: validated, defaults applied, the principal injected", async () => {
    const result = await client.callTool({ name: "valibot_greet", arguments: { name: "Ada", times: 2 } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as Envelope).data).toEqual({
      greeting: "Hello, Ada! Hello, Ada!",
      caller: "alice",
    });
    const once = await client.callTool({ name: "valibot_greet", arguments: { name: "Ada" } });
    expect((once.structuredContent as Envelope).data).toMatchObject({ greeting: "Hello, Ada!" });
  });

  it("answers bad input with invalid_input naming the field", async () => {
    const result = await client.callTool({ name: "valibot_greet", arguments: { name: "Ada", times: 9 } });
    expect(result.isError).toBe(true);
    const envelope = result.structuredContent as Envelope;
    expect(envelope.error?.kind).toBe("invalid_input");
    expect(envelope.message).toMatch(/^Invalid input: times: /);
  });
});
