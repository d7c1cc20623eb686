import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createCatalog, toJsonSchema } from "../src/index.js";
import { lookup, plugin } from "./zod-other-tool.js";

// A user's project (its code: zod-other-tool.js) with its own zod of another minor than the one
// core is built and tested with: `zod-other` is `npm:zod@4.1.13`, the workspace catalog has 4.6.x.
// `zod` is a peer dependency of core, and a second copy (a plugin with its own zod, an app that has
// not deduplicated) must still work. zod 4.0.x fails the JSON Schema case (its `.describe()`
// registry is per copy; 4.1 put it on globalThis), hence the peer range `^4.1.0`.
const require = createRequire(import.meta.url);
const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), "utf8")) as { version: string }).version;

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
