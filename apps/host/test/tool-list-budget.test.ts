import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { getAllMcpTools, MCPServerStreamableHttp } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginSettings, startUpstreams, type Upstreams } from "./fault-matrix/upstreams.js";
import { ALL_PLUGINS, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// Issue 37: what a client pays for the demo host's tool list (2026-07-28 `tools/list`, the JSON of
// the result), with every tool's structured content of real calls validating against the output
// schema it advertises, so that no budget is met by dropping the schema.
// 40,000 for issue 37's 13 tools (3,077 a tool); issue 39 added two task tools (perplexity_deep_research,
// private_repo_add_folder), so 15 tools in 44,000 (2,933 a tool: the average still went down).
const BUDGET = { list: 44_000, outputSchema: 1_536, modelFacing: 24_000 };
const KEYS = {
  CONTEXT7_API_KEY: "ctx7sk-budget-key",
  PERPLEXITY_API_KEY: "pplx-budget-key",
  RAG_API_KEY: "rag-budget-key",
  LLM_API_KEY: "sk-budget-key",
  OPENFDA_API_KEY: "openfda-budget-key",
  MONGODB_URI: "mongodb://budget:budget@127.0.0.1:9/quiver",
};

type Tool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
};

let up: Upstreams;
let project: Project;
let serve: ServeProcess;
let client: Client;
let listed: { tools: Tool[] };
let instructions: string;

beforeAll(async () => {
  up = await startUpstreams(KEYS);
  const settings = pluginSettings(up, KEYS);
  const { MONGODB_URI: _guiaUsesItsDemoStore, ...env } = settings.env;
  project = makeProject({ workspace: ALL_PLUGINS });
  writeFileSync(
    join(project.dir, "quiver.config.json"),
    JSON.stringify({
      demo: { enabled: true, cacheDir: join(project.dir, ".demo") },
      plugins: Object.fromEntries(Object.entries(settings.options).map(([id, o]) => [id, { options: o }])),
    }),
  );
  serve = await startServe([], { cwd: project.dir, env });
  client = new Client(
    { name: "budget", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`)));
  listed = (await client.listTools()) as unknown as { tools: Tool[] };
  instructions = client.getInstructions() ?? "";
}, 120_000);
afterAll(async () => {
  await client?.close();
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await up?.close();
});

/**
 * Runs the MCP Inspector's own CLI, as users run it (`npx @modelcontextprotocol/inspector --cli`),
 * against a host's `/mcp` with JSON output; rejects when it exits non-zero.
 */
const inspector = (url: string, args: ReadonlyArray<string>) => {
  const launcher = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json");
  const bin = join(launcher, "..", "clients", "launcher", "build", "index.js");
  return promisify(execFile)(
    process.execPath,
    [bin, "--cli", `${url}/mcp`, "--transport", "http", ...args, "--format", "json"],
    { maxBuffer: 16 * 1024 * 1024 },
  );
};

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? ""));

describe("the demo host's tools/list (2026-07-28)", () => {
  it("serves the 15 demo tools", () => {
    expect(listed.tools.length).toBe(15);
  });

  it(`fits ${BUDGET.list} bytes in all, ${BUDGET.outputSchema} per output schema, ${BUDGET.modelFacing} model-facing`, () => {
    const rows = listed.tools.map((t) => ({
      tool: t.name,
      output: bytes(t.outputSchema),
      input: bytes(t.inputSchema),
      text: bytes(t.name) + bytes(t.title) + bytes(t.description),
    }));
    const modelFacing = rows.reduce((n, r) => n + r.input + r.text, bytes(instructions));
    console.log(
      [
        ...rows.map((r) => `${r.tool.padEnd(34)} output ${r.output}  input ${r.input}  text ${r.text}`),
        `list ${bytes(listed)}  model-facing ${modelFacing} (instructions ${bytes(instructions)})`,
      ].join("\n"),
    );
    expect(rows.filter((r) => r.output > BUDGET.outputSchema).map((r) => `${r.tool}: ${r.output}`)).toEqual(
      [],
    );
    expect(modelFacing).toBeLessThanOrEqual(BUDGET.modelFacing);
    expect(bytes(listed)).toBeLessThanOrEqual(BUDGET.list);
  });

  it("every tool's structured content, from its examples and from a refused call, validates against its output schema", async () => {
    const validator = new AjvJsonSchemaValidator();
    const problems: string[] = [];
    const statuses = new Set<string>();
    for (const tool of listed.tools) {
      const validate = validator.getValidator(tool.outputSchema as never);
      const described = (await (await fetch(`${serve.url}/tools/${tool.name}`)).json()) as {
        examples?: Array<{ input: Record<string, unknown> }>;
      };
      const calls = [
        ...(described.examples ?? []).map((e) => e.input),
        { __not_a_field: [1] },
        { query: 42 },
      ];
      for (const args of calls) {
        const r = await client.callTool({ name: tool.name, arguments: args });
        const status = (r.structuredContent as { status?: string } | undefined)?.status ?? "none";
        statuses.add(status);
        const v = validate(r.structuredContent);
        if (!v.valid) problems.push(`${tool.name} ${JSON.stringify(args)} → ${status}: ${v.errorMessage}`);
      }
    }
    expect(problems).toEqual([]);
    expect([...statuses]).toEqual(expect.arrayContaining(["success", "error"]));
  }, 120_000);

  it("passes the MCP Inspector CLI's --strict schema portability check with no finding", async () => {
    const { stdout } = await inspector(serve.url, ["--method", "tools/list", "--strict"]);
    const answer = JSON.parse(stdout) as { result: { tools: unknown[] }; schemaFindings?: unknown[] };
    expect(answer.result.tools.length).toBe(15);
    expect(answer.schemaFindings ?? []).toEqual([]);
  }, 60_000);

  it("converts every tool to strict mode in OpenAI Agents JS", async () => {
    const server = new MCPServerStreamableHttp({ url: `${serve.url}/mcp`, name: "quiver" });
    await server.connect();
    try {
      const tools = (await getAllMcpTools({ mcpServers: [server], convertSchemasToStrict: true })) as Array<{
        name: string;
        strict?: boolean;
      }>;
      expect(tools.length).toBe(15);
      expect(tools.filter((t) => t.strict !== true).map((t) => t.name)).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);
});

// A partial answer is an answer (issue 37): the Inspector CLI exits 5 on `isError: true`, so it must
// exit 0 on testgen's rule-based questions when no LLM is configured, and print them.
describe("the MCP Inspector CLI calling a tool that answers partial", () => {
  let bare: { project: Project; serve: ServeProcess };
  beforeAll(async () => {
    const p = makeProject({ workspace: ["@quiver/plugin-testgen"] });
    bare = { project: p, serve: await startServe([], { cwd: p.dir }) };
  }, 60_000);
  afterAll(async () => {
    bare?.serve.child.kill("SIGTERM");
    await bare?.serve.exited;
    bare?.project.cleanup();
  });

  it("exits 0 and prints the partial's questions", async () => {
    const call = ["--method", "tools/call", "--tool-name", "testgen_generate_test"];
    const args = ["--tool-args-json", JSON.stringify({ topic: "Turing machines", num_questions: 2 })];
    // execFile rejects on a non-zero exit, with the code and both streams in the error.
    const { stdout } = await inspector(bare.serve.url, [...call, ...args]);
    const answer = JSON.parse(stdout) as {
      result: {
        isError?: boolean;
        content: Array<{ type: string; text?: string }>;
        structuredContent?: { status?: string; data?: { questions?: Array<{ question?: string }> } };
      };
    };
    expect(answer.result.isError ?? false).toBe(false);
    const envelope = answer.result.structuredContent;
    expect(envelope?.status).toBe("partial");
    expect(envelope?.data?.questions).toHaveLength(2);
    const text = answer.result.content.map((c) => c.text ?? "").join("\n");
    expect(text).toMatch(/No LLM configured/);
    for (const q of envelope?.data?.questions ?? []) expect(q.question).toMatch(/Turing/i);
  }, 60_000);
});
