import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HOST_DIR, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The config file's `mcpServers` section, in the shape MCP clients use: a stdio server (a node
// script on the MCP SDK) bridged with its tools named `<name>_<tool>`, served again over MCP.
const STEPS_SERVER = join(HOST_DIR, "test", "fixtures", "mcp-servers", "steps-server.mjs");

let project: Project;
let serve: ServeProcess;
let client: Client;

beforeAll(async () => {
  project = makeProject({
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        discover: false,
        mcpServers: {
          steps: { command: process.execPath, args: [STEPS_SERVER], env: { GREETING: "hello from env" } },
          broken: { command: join(HOST_DIR, "no-such-server") },
        },
      }),
    },
  });
  serve = await startServe([], { cwd: project.dir });
  client = new Client({ name: "mcp-servers-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`)));
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
});

it("bridges the servers of mcpServers with their tools prefixed by the server's name", async () => {
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["steps_echo", "steps_steps"]));
  const r = await client.callTool({ name: "steps_echo", arguments: { message: "hi" } });
  expect(r.isError).toBe(false);
  expect(JSON.stringify(r.structuredContent)).toContain("hello from env: hi");
});

it("reports a server that cannot be started and serves the others", () => {
  expect(serve.stderr()).toMatch(/mcpServers\.broken/);
});

it("forwards every progress step of a bridged call to the MCP client", async () => {
  const seen: number[] = [];
  const r = await client.callTool(
    { name: "steps_steps", arguments: {} },
    { onprogress: (p) => seen.push(p.progress) },
  );
  expect(r.isError).toBe(false);
  expect(seen).toEqual([1, 2, 3]);
});

it("passes a bridged server's image on to the MCP client as an image block", async () => {
  const r = await client.callTool({ name: "steps_picture", arguments: {} });
  expect(r.isError).toBe(false);
  expect(r.content).toContainEqual({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
});
