import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// The MCP SDK's client is an optional peer of the plugin. This test installs the built plugin in a project of
// its own without it (the plugin's files copied, its required peers linked, nothing else on the resolution
// path) and runs a real catalog there in a child process: importing and registering the plugin must work,
// and a call on `transport: "mcp"` must answer with an envelope that names the package to install.
const PLUGIN = fileURLToPath(new URL("..", import.meta.url));
const project = mkdtempSync(join(tmpdir(), "quiver-ctx7-no-sdk-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const install = () => {
  const modules = join(project, "node_modules");
  const plugin = join(modules, "@quiver", "plugin-context7");
  mkdirSync(plugin, { recursive: true });
  cpSync(join(PLUGIN, "package.json"), join(plugin, "package.json"));
  cpSync(join(PLUGIN, "dist"), join(plugin, "dist"), { recursive: true });
  for (const peer of ["@quiver/core", "effect", "zod", "lru-cache"]) {
    mkdirSync(dirname(join(modules, peer)), { recursive: true });
    symlinkSync(realpathSync(join(PLUGIN, "node_modules", peer)), join(modules, peer), "dir");
  }
  writeFileSync(
    join(project, "main.mjs"),
    `import { createCatalog } from "@quiver/core";
import { createContext7Plugin } from "@quiver/plugin-context7";
const catalog = createCatalog({ env: {} });
catalog.register(createContext7Plugin({ transport: "mcp", mcp: { command: process.execPath, args: ["-e", ""] } }));
const result = await catalog.call("context7_search_documentation", { query: "hooks", library: "react" });
const tools = catalog.list().map((t) => t.name);
await catalog.close();
console.log(JSON.stringify({ result, tools }));
`,
  );
};

describe("context7 on transport mcp without the MCP SDK installed", () => {
  it("answers unavailable naming @modelcontextprotocol/client and how to install it", async () => {
    install();
    const { stdout } = await promisify(execFile)(process.execPath, ["main.mjs"], { cwd: project });
    const { result, tools } = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(tools).toContain("context7_search_documentation");
    expect(result.status).toBe("unavailable");
    expect(result.message).toMatch(
      /^The context7 plugin could not start: transport "mcp" needs the MCP SDK client/,
    );
    expect(result.error.kind).toBe("unavailable");
    expect(result.message).toContain("@modelcontextprotocol/client");
    expect(result.message).toMatch(/npm install @modelcontextprotocol\/client/);
    expect(result.message).toMatch(/transport "http"/);
  });
});
