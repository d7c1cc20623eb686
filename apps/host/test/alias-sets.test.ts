import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeContext7 } from "../../../packages/plugins/context7/test/context7-upstream.js";
import {
  CLI,
  cleanEnv,
  makeProject,
  type Project,
  runQuiver,
  type ServeProcess,
  startServe,
} from "./helpers.js";

// `quiver serve --alias-set context7-mcp`: a prompt written for the official Context7 MCP server
// (@upstash/context7-mcp) calls `resolve-library-id` and `query-docs` with `libraryName`/`libraryId`,
// and Quiver's context7 tools answer it, against the emulated Context7 API.

type Tool = { name: string; description?: string; inputSchema: Record<string, any> };
type Envelope = {
  status: string;
  message: string;
  suggestion?: string;
  error?: { kind: string; message: string };
  data?: any;
};

let upstream: Emulator;
let project: Project;
let env: Record<string, string>;

beforeAll(async () => {
  upstream = await startEmulator();
  routeContext7(upstream);
  project = makeProject({ workspace: ["@quiver/plugin-context7"] });
  env = { CONTEXT7_API_URL: `${upstream.url}/api`, CONTEXT7_API_KEY: "ctx7sk-alias-test" };
});
afterAll(async () => {
  project?.cleanup();
  await upstream?.close();
});

/** What every transport must show: the aliases listed and called in the official server's names. */
const checkServed = async (client: Client) => {
  const { tools } = (await client.listTools()) as unknown as { tools: Tool[] };
  const byName = new Map(tools.map((t) => [t.name, t]));
  expect([...byName.keys()]).toEqual(
    expect.arrayContaining(["resolve-library-id", "query-docs", "context7_search_documentation"]),
  );
  // Listed under the alias only, with the alias's parameters.
  expect(byName.has("context7_resolve_library_id")).toBe(false);
  expect(byName.has("context7_get_library_docs")).toBe(false);
  const resolve = byName.get("resolve-library-id")!;
  expect(Object.keys(resolve.inputSchema.properties)).toEqual(
    expect.arrayContaining(["libraryName", "query"]),
  );
  expect(resolve.inputSchema.properties).not.toHaveProperty("library_name");
  expect(resolve.inputSchema.required).toContain("libraryName");
  const docs = byName.get("query-docs")!;
  expect(docs.inputSchema.properties).toHaveProperty("libraryId");
  expect(docs.inputSchema.required).toContain("libraryId");
  // What the model reads speaks the alias names (the output's data keeps the tool's own fields).
  expect(JSON.stringify([docs.description, docs.inputSchema])).not.toMatch(
    /\blibrary_id\b|context7_resolve_library_id/,
  );
  expect(docs.description).toContain("resolve-library-id");

  const found = await client.callTool({
    name: "resolve-library-id",
    arguments: { libraryName: "next.js", query: "middleware" },
  });
  const resolved = found.structuredContent as Envelope;
  expect(resolved.status, resolved.message).toBe("success");
  expect(JSON.stringify(resolved.data)).toContain("/vercel/next.js");

  const answered = await client.callTool({
    name: "query-docs",
    arguments: { libraryId: "/vercel/next.js", query: "middleware" },
  });
  const docsEnvelope = answered.structuredContent as Envelope;
  expect(docsEnvelope.status, docsEnvelope.message).toBe("success");
  expect(answered.isError ?? false).toBe(false);

  // A bad argument: the refusal names the alias's parameter, never the tool's own.
  const bad = await client.callTool({
    name: "query-docs",
    arguments: { libraryId: 42, query: "middleware" },
  });
  const refused = bad.structuredContent as Envelope;
  expect(refused.error?.kind).toBe("invalid_input");
  expect(bad.isError).toBe(true);
  const said = [refused.message, refused.error?.message, refused.suggestion].join(" ");
  expect(said).toMatch(/libraryId/);
  expect(said).not.toMatch(/\blibrary_id\b/);
  const text = (bad.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
  expect(text).not.toMatch(/\blibrary_id\b/);
};

describe("quiver serve --alias-set context7-mcp", () => {
  it("over Streamable HTTP, in both protocol eras: lists and calls the official server's names", async () => {
    const serve: ServeProcess = await startServe(["--alias-set", "context7-mcp"], { cwd: project.dir, env });
    try {
      // The 2025 handshake (a session) and the 2026-07-28 opening (a server per request).
      for (const mode of ["legacy", { pin: "2026-07-28" }] as const) {
        const client = new Client({ name: "alias-test", version: "1.0.0" }, { versionNegotiation: { mode } });
        try {
          await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`)));
          await checkServed(client);
        } finally {
          await client.close();
        }
      }
      expect(serve.stderr()).toContain("alias sets over MCP: context7-mcp");
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  }, 90_000);

  it("over stdio, from the config file's aliasSets", async () => {
    const dir = makeProject({ workspace: ["@quiver/plugin-context7"] });
    writeFileSync(join(dir.dir, "quiver.config.json"), JSON.stringify({ aliasSets: ["context7-mcp"] }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--stdio"],
      cwd: dir.dir,
      env: cleanEnv(env),
      stderr: "pipe",
    });
    const client = new Client({ name: "alias-stdio", version: "1.0.0" });
    try {
      await client.connect(transport);
      await checkServed(client);
    } finally {
      await client.close();
      dir.cleanup();
    }
  }, 60_000);

  it("refuses to start with an unknown set, listing the sets there are", async () => {
    const r = await runQuiver(["serve", "--port", "0", "--alias-set", "context7-official"], {
      cwd: project.dir,
      env,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('unknown alias set "context7-official"');
    expect(r.stderr).toContain("context7-mcp (context7)");
  }, 30_000);

  it("without the flag, serves the tools under their own names", async () => {
    const serve = await startServe([], { cwd: project.dir, env });
    const client = new Client({ name: "alias-off", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`)));
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain("context7_resolve_library_id");
      expect(names).not.toContain("resolve-library-id");
    } finally {
      await client.close();
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  }, 60_000);
});
