import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BINARY } from "./fixtures/plugins/shelf/index.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The MCP Inspector's own CLI (`npx @modelcontextprotocol/inspector --cli`, as users run it) lists and reads
// the resources of `quiver serve` with the shelf and conformance fixture plugins, over Streamable HTTP.
let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  project = makeProject({ fixtures: ["shelf", "conformance"] });
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

describe("MCP Inspector's CLI on quiver serve's resources", () => {
  it("lists the resources and the resource templates", async () => {
    const listed = await inspector(["--method", "resources/list"]);
    expect(listed.resources.map((r: { uri: string }) => r.uri).sort()).toEqual([
      "shelf://readme",
      "shelf://record",
      "shelf://signature.bin",
      "test://static-binary",
      "test://static-text",
      "test://watched-resource",
    ]);
    const templates = await inspector(["--method", "resources/templates/list"]);
    expect(templates.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate).sort()).toEqual([
      "shelf://notes/{owner}",
      "test://template/{id}/data",
    ]);
  }, 60_000);

  it("reads a text resource, a template's resource and a binary one", async () => {
    const text = await inspector(["--method", "resources/read", "--uri", "shelf://readme"]);
    expect(text.contents).toEqual([
      { uri: "shelf://readme", mimeType: "text/markdown", text: "# Shelf\n\nA test plugin." },
    ]);
    const data = await inspector(["--method", "resources/read", "--uri", "test://template/7/data"]);
    expect(JSON.parse(data.contents[0].text)).toMatchObject({ id: "7", templateTest: true });
    const binary = await inspector(["--method", "resources/read", "--uri", "shelf://signature.bin"]);
    expect(binary.contents[0].blob).toBe(BINARY);
  }, 60_000);

  it("fails, saying why, for a URI nothing serves", async () => {
    const failed = await inspector(["--method", "resources/read", "--uri", "test://no-such-thing"]).then(
      () => undefined,
      (error: { code?: number; stdout?: string; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    // The host's message, as the Inspector prints the MCP error (not only the command line echoed back).
    expect(`${failed?.stdout}${failed?.stderr}`).toContain("No resource at test://no-such-thing.");
  }, 60_000);
});
