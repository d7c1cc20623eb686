// The tool digests a release publishes (each server.json's publisher-provided metadata), checked
// with the AI SDK as a user would: its MCP client lists a server's tools, its fingerprintTools
// digests them, its detectToolDrift compares with the published baseline.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createCatalog } from "@quiver/core";
import { afterEach, describe, expect, it } from "vitest";
import { envOf, mainOf } from "./launch-server.mjs";
import { loadServedPlugin, root, SERVED_PLUGINS } from "./served-plugins.mjs";
import { SERVER_JSON_DIGESTS_KEY } from "./tool-digests.mjs";

// The AI SDK is a dev dependency of @quiver/mcp (its tests), and @quiver/mcp one of the kit.
const fromPackage = async (dir, specifier) =>
  import(pathToFileURL(createRequire(join(root, dir, "package.json")).resolve(specifier)).href);
const { fingerprintTools, detectToolDrift } = await fromPackage("packages/mcp", "ai");
const { createMCPClient } = await fromPackage("packages/mcp", "@ai-sdk/mcp");
const { Experimental_StdioMCPTransport } = await fromPackage("packages/mcp", "@ai-sdk/mcp/mcp-stdio");
const { createMcpHttpHandler } = await fromPackage("packages/servers/kit", "@quiver/mcp/server");

/** The baseline a release published for a server: its server.json's tool digests. */
const baselineOf = (id) =>
  JSON.parse(readFileSync(join(root, "packages", "servers", id, "server.json"), "utf8"))._meta[
    "io.modelcontextprotocol.registry/publisher-provided"
  ][SERVER_JSON_DIGESTS_KEY];

const closers = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe("detectToolDrift against the digests each server.json publishes", () => {
  for (const id of SERVED_PLUGINS) {
    it(`@quiver/${id}-mcp over stdio: no drift`, async () => {
      const { settings } = await loadServedPlugin(id);
      const env = envOf(Object.fromEntries(settings.filter((s) => s.required).map((s) => [s.env, "x"])));
      const client = await createMCPClient({
        transport: new Experimental_StdioMCPTransport({
          command: process.execPath,
          args: [mainOf(id)],
          env,
          stderr: "ignore",
        }),
      });
      closers.push(() => client.close());
      const current = await fingerprintTools(await client.tools());
      expect(Object.keys(current).length).toBeGreaterThan(0);
      expect(detectToolDrift(current, baselineOf(id))).toEqual({ added: [], removed: [], changed: [] });
    });
  }

  it("a release whose tool description changed is reported as that tool's drift", async () => {
    const { plugin } = await loadServedPlugin("fda");
    const [first] = plugin.tools;
    const changed = {
      ...plugin,
      tools: plugin.tools.map((t) => (t === first ? { ...t, description: `${t.description} Also X.` } : t)),
    };
    // The same plugin served by the same @quiver/mcp, over Streamable HTTP, one description changed.
    const catalog = createCatalog({ env: {} });
    catalog.register(changed);
    const handler = createMcpHttpHandler(catalog, {});
    const http = createServer((req, res) => void handler(req, res));
    await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(
      () => catalog.close(),
      () => new Promise((resolve) => http.close(resolve)),
      () => handler.close(),
    );
    const client = await createMCPClient({
      transport: { type: "http", url: `http://127.0.0.1:${http.address().port}/mcp` },
    });
    closers.push(() => client.close());
    const drift = detectToolDrift(await fingerprintTools(await client.tools()), baselineOf("fda"));
    expect(drift).toEqual({ added: [], removed: [], changed: [first.name] });
  });
});
