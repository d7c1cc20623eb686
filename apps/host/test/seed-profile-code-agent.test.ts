import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTEXT_JSON, routeContext7 } from "../../../packages/plugins/context7/test/context7-upstream.js";
import { CHAT, routePerplexity } from "../../../packages/plugins/perplexity/test/perplexity-upstream.js";
import { CLI, cleanEnv, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The code agent's ExternalToolsMixin against `quiver serve --profile code-agent`, over real
// sockets: Context7 and Perplexity emulated with their recorded answer shapes. The agent's own tests
// assert the dicts below: "" never null, "embedded knowledge" in the guidance, a written answer from
// search_web, success false with an error when PERPLEXITY_API_KEY is not set.

const KEY = "pplx-test";
let context7: Emulator;
let perplexity: Emulator;
let project: Project;
let serve: ServeProcess;
let keyless: ServeProcess;

/** React's documentation in Context7's JSON shape (the recorded Next.js answer, retitled). */
const REACT_DOCS = {
  ...(CONTEXT_JSON as Record<string, unknown>),
  codeSnippets: [
    {
      codeTitle: "useState hook",
      codeDescription: "Declare a state variable with useState",
      codeLanguage: "javascript",
      codeTokens: 40,
      codeId:
        "https://github.com/reactjs/react.dev/blob/main/src/content/reference/react/useState.md#_snippet_0",
      pageTitle: "useState",
      codeList: [{ language: "javascript", code: "const [count, setCount] = useState(0);" }],
    },
  ],
};

/** Perplexity's chat answer in its recorded shape, about the agent's own test question. */
const ASYNC_ANSWER = {
  ...CHAT,
  choices: [
    {
      index: 0,
      finish_reason: "stop",
      message: {
        role: "assistant",
        content: "Use async/await with asyncio.TaskGroup for structured concurrency [1].",
      },
    },
  ],
  citations: ["https://docs.python.org/3/library/asyncio-task.html"],
};

beforeAll(async () => {
  [context7, perplexity] = await Promise.all([startEmulator(), startEmulator()]);
  routeContext7(context7);
  context7.route("GET", "/api/v2/context", (req) =>
    req.query.get("libraryId") === "/facebook/react" ? { json: REACT_DOCS } : { status: 404, json: {} },
  );
  routePerplexity(perplexity, KEY);
  perplexity.route("POST", "/chat/completions", (req) =>
    req.headers.authorization === `Bearer ${KEY}`
      ? { json: { ...ASYNC_ANSWER, model: (req.json as { model: string }).model } }
      : { status: 401, text: "Unauthorized" },
  );
  project = makeProject({ workspace: ["@quiver/plugin-context7", "@quiver/plugin-perplexity"] });
  const env = { CONTEXT7_API_URL: `${context7.url}/api`, PERPLEXITY_BASE_URL: perplexity.url };
  [serve, keyless] = await Promise.all([
    startServe(["--profile", "code-agent"], { cwd: project.dir, env: { ...env, PERPLEXITY_API_KEY: KEY } }),
    startServe(["--profile", "code-agent"], { cwd: project.dir, env }),
  ]);
}, 60_000);
afterAll(async () => {
  for (const s of [serve, keyless]) s?.child.kill("SIGTERM");
  await Promise.all([serve?.exited, keyless?.exited]);
  project?.cleanup();
  await Promise.all([context7?.close(), perplexity?.close()]);
});

const call = async (on: ServeProcess, tool: string, args: unknown, session?: string) => {
  const res = await fetch(`${on.url}/tools/${tool}/call`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(session ? { "x-quiver-session": session } : {}) },
    body: JSON.stringify(args),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};

describe("search_documentation(query, library=None) -> dict", () => {
  it('success: {"success": True, "documentation": ...} containing useState', async () => {
    const r = await call(serve, "search_documentation", { query: "useState hook", library: "react" });
    expect(Object.keys(r).sort()).toEqual(["documentation", "success"]);
    expect(r.success).toBe(true);
    expect(r.documentation).toContain("useState");
  });

  it('service up, search failed: success False, documentation "", the error', async () => {
    const r = await call(serve, "search_documentation", { query: "q", library: "no-such-library-anywhere" });
    expect(r.success).toBe(false);
    expect(r.documentation).toBe("");
    expect(r.error).toEqual(expect.any(String));
    expect(r.unavailable).toBeUndefined();
  });
  // Last in this block: three failures open Context7's circuit breaker.
  it('unavailable: "" not null, the error string, guidance with "embedded knowledge", unavailable True', async () => {
    context7.fault("GET", "/api/v2/context", { kind: "status", status: 503 });
    try {
      const r = await call(
        serve,
        "search_documentation",
        { query: "useEffect cleanup", library: "react" },
        "conv-1",
      );
      expect(r).toEqual({
        success: false,
        documentation: "",
        error: "Context7 not available. Use your embedded knowledge for this pattern.",
        guidance: expect.stringContaining("embedded knowledge"),
        unavailable: true,
      });
      expect(r.guidance).toContain("escalate");
      // The second failure in the same session: escalate, and the guidance says to tell the user.
      const again = await call(
        serve,
        "search_documentation",
        { query: "useEffect cleanup", library: "react" },
        "conv-1",
      );
      expect(again).toMatchObject({ success: false, documentation: "", unavailable: true, escalate: true });
      expect(again.guidance).toContain("tell the user");
      expect(again.guidance).toContain("embedded knowledge");
      // Another conversation starts afresh.
      const other = await call(
        serve,
        "search_documentation",
        { query: "useEffect cleanup", library: "react" },
        "conv-2",
      );
      expect(other.escalate).toBeUndefined();
    } finally {
      context7.clearFaults();
    }
  });
});

describe("search_web(query) -> dict", () => {
  it("a written answer by default (Perplexity's chat API), containing async", async () => {
    const r = await call(serve, "search_web", { query: "Python async best practices 2025" });
    expect(r.success).toBe(true);
    expect(r.answer).toMatch(/^Use async\/await/);
    expect(r.answer).toContain("async");
    expect(Object.keys(r).sort()).toEqual(["answer", "success"]);
    expect(perplexity.requestsTo("POST", "/chat/completions").length).toBeGreaterThan(0);
  });

  it('no PERPLEXITY_API_KEY: {"success": False, "answer": "", "error": ...}', async () => {
    const r = await call(keyless, "search_web", { query: "Python async best practices 2025" });
    expect(r).toEqual({ success: false, answer: "", error: expect.stringContaining("PERPLEXITY_API_KEY") });
  });
});

describe("over MCP (the agent's MCP client mixin)", () => {
  it("the two tools by name; structuredContent the dict, text its JSON", async () => {
    const client = new Client({ name: "code-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`)));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["search_documentation", "search_web"]));
      const r = await client.callTool({
        name: "search_documentation",
        arguments: { query: "useState hook", library: "react" },
      });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ success: true });
      expect(JSON.parse((r.content as Array<{ text: string }>)[0]!.text)).toEqual(r.structuredContent);
    } finally {
      await client.close();
    }
  });

  it("over stdio too: quiver serve --stdio --profile code-agent", async () => {
    const client = new Client({ name: "code-agent-stdio", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--stdio", "--profile", "code-agent"],
        cwd: project.dir,
        env: cleanEnv({ CONTEXT7_API_URL: `${context7.url}/api`, PERPLEXITY_BASE_URL: perplexity.url }),
        stderr: "pipe",
      }),
    );
    try {
      const r = await client.callTool({
        name: "search_web",
        arguments: { query: "Python async best practices 2025" },
      });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({
        success: false,
        answer: "",
        error: expect.stringContaining("PERPLEXITY_API_KEY"),
      });
    } finally {
      await client.close();
    }
  });
});
