import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { z as zodOther } from "zod-other";
import { createCatalog, definePlugin, defineTool, toJsonSchema } from "../src/index.js";

// A user's project with its own zod of another minor than the one core is built and tested with
// (`zod-other` is `npm:zod@4.1.13`; the workspace catalog has 4.6.x. zod 4.0.x fails the JSON Schema case: its `.describe()` registry is not shared between copies (4.1 put it on globalThis), hence the peer range `^4.1.0`): `zod` is a peer dependency of
// core, and a second copy (a plugin with its own zod, an app that has not deduplicated) must work.
const require = createRequire(import.meta.url);
const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), "utf8")) as { version: string }).version;

const lookup = defineTool({
  name: "user_lookup_item",
  description: "Looks an item up by id. Use when the user names an item.",
  category: "test",
  input: zodOther.object({
    id: zodOther.string().min(2).describe("Item id"),
    limit: zodOther.number().int().min(1).max(10).default(3).describe("How many related items"),
    kind: zodOther.enum(["book", "paper"]).optional().describe("Kind of item"),
  }),
  output: zodOther.object({ id: zodOther.string(), related: zodOther.array(zodOther.string()) }),
  run: ({ id, limit }) => ({ id, related: Array.from({ length: limit }, (_, i) => `${id}-${i}`) }),
});
const plugin = definePlugin({ specificationVersion: "v1", id: "user", version: "1.0.0", tools: [lookup] });

describe("a tool defined with a user's zod of another minor version", () => {
  it("really is another copy and minor of zod", () => {
    const [userMajor, userMinor] = versionOf("zod-other").split(".");
    const [coreMajor, coreMinor] = versionOf("zod").split(".");
    expect(userMajor).toBe(coreMajor);
    expect(userMinor).not.toBe(coreMinor);
  });

  it("answers a valid call with an ok envelope, defaults applied", async () => {
    const catalog = createCatalog();
    catalog.register(plugin);
    const result = await catalog.call("user_lookup_item", { id: "ab" });
    expect(result.status).toBe("success");
    expect(result.data).toEqual({ id: "ab", related: ["ab-0", "ab-1", "ab-2"] });
    await catalog.close();
  });

  it("answers invalid input with an invalid_input envelope naming the field", async () => {
    const catalog = createCatalog();
    catalog.register(plugin);
    const result = await catalog.call("user_lookup_item", { id: "a", limit: 50 });
    expect(result.status).toBe("error");
    expect(result.error?.kind).toBe("invalid_input");
    expect(result.message).toMatch(/id|limit/);
    await catalog.close();
  });

  it("exports its JSON Schema for every target", () => {
    const mcp = toJsonSchema(lookup.input, "mcp");
    expect(mcp).toMatchObject({
      type: "object",
      properties: {
        id: { type: "string", minLength: 2, description: "Item id" },
        limit: { type: "integer", default: 3 },
        kind: { enum: ["book", "paper"] },
      },
      required: ["id"],
    });
    expect(toJsonSchema(lookup.input, "openai")).toMatchObject({
      type: "object",
      additionalProperties: false,
    });
    expect(toJsonSchema(lookup.input, "gemini")).toMatchObject({ type: "object" });
    const catalog = createCatalog();
    catalog.register(plugin);
    expect(catalog.describe("user_lookup_item")?.inputSchema).toMatchObject({ required: ["id"] });
  });
});
