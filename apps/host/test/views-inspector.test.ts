import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The MCP Inspector's own CLI lists and reads the MCP Apps views (`ui://`) of `quiver serve` with
// the fda and alphafold plugins, over Streamable HTTP. (No upstream is called: listing needs none.)
let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  project = makeProject({ workspace: ["@quiver/plugin-fda", "@quiver/plugin-alphafold"] });
  serve = await startServe([], { cwd: project.dir });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
});

/** Runs the Inspector's CLI against the host's `/mcp` with JSON output; its parsed `result`. */
const inspector = async (args: ReadonlyArray<string>) => {
  const launcher = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json");
  const bin = join(launcher, "..", "clients", "launcher", "build", "index.js");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bin, "--cli", `${serve.url}/mcp`, "--transport", "http", ...args, "--format", "json"],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return (JSON.parse(stdout) as { result: Record<string, any> }).result;
};

describe("MCP Inspector's CLI on quiver serve's MCP Apps views", () => {
  it("lists the ui:// views with the MCP Apps MIME type and reads one's page", async () => {
    const listed = await inspector(["--method", "resources/list"]);
    const views = listed.resources.filter((r: { uri: string }) => r.uri.startsWith("ui://"));
    expect(views.map((r: { uri: string; mimeType: string }) => `${r.uri} ${r.mimeType}`).sort()).toEqual([
      "ui://alphafold/structure text/html;profile=mcp-app",
      "ui://fda/drugs text/html;profile=mcp-app",
    ]);
    const read = await inspector(["--method", "resources/read", "--uri", "ui://fda/drugs"]);
    expect(read.contents[0]).toMatchObject({ uri: "ui://fda/drugs", mimeType: "text/html;profile=mcp-app" });
    expect(read.contents[0].text).toMatch(/^<!doctype html>/i);
  }, 60_000);
});
