import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Catalog, createCatalog, definePlugin, defineTool } from "../src/index.js";

// A scope-limited caller (an OAuth token's scopes on the session) reaches a tool only with the scopes
// it needs: called directly or through another tool's `ctx.callTool`.
const vault = definePlugin({
  specificationVersion: "v1",
  id: "vault",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "vault_read",
      description: "Reads the vault's secret.",
      category: "private_repository",
      input: z.object({}),
      output: z.object({ secret: z.string() }),
      annotations: { readOnly: true, openWorld: false },
      run: async () => ({ secret: "the-owl-flies-at-midnight" }),
    }),
  ],
});
const relay = definePlugin({
  specificationVersion: "v1",
  id: "relay",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "relay_fetch",
      description: "Fetches what the vault tool answers, through ctx.callTool.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({ status: z.string(), secret: z.string().optional(), message: z.string() }),
      annotations: { readOnly: true, openWorld: false },
      run: async (_, ctx) => {
        const inner = await ctx.callTool("vault_read", {});
        const secret = (inner.data as { secret?: string } | undefined)?.secret;
        return { status: inner.status, message: inner.message, ...(secret ? { secret } : {}) };
      },
    }),
  ],
});

let catalog: Catalog | undefined;
afterEach(async () => {
  await catalog?.close();
  catalog = undefined;
});

const scoped = () => {
  catalog = createCatalog({
    env: {},
    requiredScopes: (tool) => (tool.plugin === "vault" ? ["vault:read"] : []),
  });
  catalog.register(vault);
  catalog.register(relay);
  return catalog;
};

describe("requiredScopes: every call of a scope-limited caller", () => {
  it("refuses a direct call without the scope as access_denied, naming the scope", async () => {
    const r = await scoped().call("vault_read", {}, { session: { principal: "bob", scopes: ["tools"] } });
    expect(r.status).toBe("access_denied");
    expect(r.error).toMatchObject({ kind: "access_denied", retryable: false });
    expect(r.message).toContain("vault:read");
    expect(JSON.stringify(r)).not.toContain("the-owl-flies-at-midnight");
  });

  it("refuses the nested call a tool makes for that caller (ctx.callTool)", async () => {
    const r = await scoped().call("relay_fetch", {}, { session: { principal: "bob", scopes: ["tools"] } });
    expect(r.status).toBe("success");
    expect(r.data).toMatchObject({ status: "access_denied" });
    expect(JSON.stringify(r)).not.toContain("the-owl-flies-at-midnight");
  });

  it("lets a caller with the scope through, directly and nested", async () => {
    const c = scoped();
    const session = { principal: "alice", scopes: ["tools", "vault:read"] };
    expect((await c.call("vault_read", {}, { session })).data).toEqual({
      secret: "the-owl-flies-at-midnight",
    });
    expect((await c.call("relay_fetch", {}, { session })).data).toMatchObject({
      status: "success",
      secret: "the-owl-flies-at-midnight",
    });
  });

  it("does not limit a session without scopes (static tokens, stdio, the CLI)", async () => {
    const r = await scoped().call("relay_fetch", {}, { session: { principal: "carol" } });
    expect(r.data).toMatchObject({ status: "success", secret: "the-owl-flies-at-midnight" });
  });
});
