// The bundled one-plugin MCP servers, tested as MCP clients launch them: the built `dist/main.js`
// started as a process by the MCP SDK's stdio client (and over Streamable HTTP with --port), tools
// listed and called against the plugin's emulator; and the generated files, fresh and accepted.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { loadJson, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverJsonProblems } from "./check-server-json.mjs";
import { generateServers } from "./generate-servers.mjs";
import { envOf, launch, mainOf, textOf } from "./launch-server.mjs";
import { packBundle } from "./pack-bundles.mjs";
import { loadServedPlugin, root, SERVED_PLUGINS } from "./served-plugins.mjs";

const run = promisify(execFile);
const fixture = (plugin, name) => join(root, "packages", "plugins", plugin, "test", "fixtures", name);

beforeAll(() => {
  for (const id of SERVED_PLUGINS)
    if (!existsSync(mainOf(id)))
      throw new Error(`${mainOf(id)} is missing: pnpm turbo run build --filter "./packages/servers/*"`);
});

describe("each bundled server over stdio", () => {
  for (const id of SERVED_PLUGINS) {
    it(`@quiver/${id}-mcp lists exactly its plugin's tools`, async () => {
      const { plugin, settings } = await loadServedPlugin(id);
      // A required key is given a dummy value: listing needs no upstream.
      const required = Object.fromEntries(
        settings.filter((s) => s.required).map((s) => [s.env, "test-value"]),
      );
      const { client } = await launch(id, required);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(plugin.tools.map((t) => t.name).sort());
        expect(client.getServerVersion()).toMatchObject({ name: `@quiver/${id}-mcp` });
      } finally {
        await client.close();
      }
    });
  }
});

describe("the MCP Apps views ship inside the bundled servers", () => {
  for (const [id, uri] of [
    ["fda", "ui://fda/drugs"],
    ["alphafold", "ui://alphafold/structure"],
  ]) {
    it(`@quiver/${id}-mcp lists ${uri} and reads its page from its own dist/views`, async () => {
      const { client } = await launch(id, {});
      try {
        const { resources } = await client.listResources();
        expect(resources.find((r) => r.uri === uri)).toMatchObject({ mimeType: "text/html;profile=mcp-app" });
        const { contents } = await client.readResource({ uri });
        expect(contents[0].text).toMatch(/^<!doctype html>/i);
      } finally {
        await client.close();
      }
    });
  }
});

describe("calls reach the plugin's upstream (its emulator, through the plugin's base-URL setting)", () => {
  let up;
  beforeAll(async () => {
    up = await startEmulator();
  });
  afterAll(() => up.close());

  it("context7: context7_resolve_library_id answers from the emulated Context7", async () => {
    up.reset();
    up.route("GET", "/api/v2/libs/search", { json: loadJson(fixture("context7", "search-react.json")) });
    const { client } = await launch("context7", { CONTEXT7_API_URL: `${up.url}/api` });
    try {
      const result = await client.callTool({
        name: "context7_resolve_library_id",
        arguments: { library_name: "react", query: "how do hooks work" },
      });
      expect(result.isError).not.toBe(true);
      expect(textOf(result)).toContain("/facebook/react");
      expect(up.requestsTo("GET", "/api/v2/libs/search").length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it("perplexity: the key from the environment reaches the emulated Search API as a bearer token", async () => {
    up.reset();
    up.route("POST", "/search", (req) =>
      req.headers.authorization === "Bearer pplx-test"
        ? { json: loadJson(fixture("perplexity", "search-san-francisco.json")) }
        : { status: 401, text: "unauthorised" },
    );
    const { client, out } = await launch("perplexity", {
      PERPLEXITY_API_KEY: "pplx-test",
      PERPLEXITY_BASE_URL: up.url,
    });
    try {
      const result = await client.callTool({
        name: "perplexity_search_web",
        arguments: { query: "What is the population of San Francisco?" },
      });
      expect(result.isError).not.toBe(true);
      expect(textOf(result)).toContain("en.wikipedia.org/wiki/San_Francisco");
      expect(out.stderr).not.toContain("pplx-test");
    } finally {
      await client.close();
    }
  });

  it("the .mcpb: unpacked, started exactly as its mcp_config says with a user_config filled in, it calls a tool", async () => {
    up.reset();
    up.route("POST", "/search", (req) =>
      req.headers.authorization === "Bearer pplx-bundle"
        ? { json: loadJson(fixture("perplexity", "search-san-francisco.json")) }
        : { status: 401, text: "unauthorised" },
    );
    const tmp = mkdtempSync(join(tmpdir(), "quiver-mcpb-test-"));
    try {
      const { file } = await packBundle(join(root, "packages", "servers", "perplexity"), tmp);
      const dir = join(tmp, "unpacked");
      await run(join(root, "node_modules", ".bin", "mcpb"), ["unpack", file, dir]);
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
      // What Claude Desktop does: ${__dirname} is the unpacked folder, ${user_config.x} the user's value.
      const userConfig = { apiKey: "pplx-bundle", baseUrl: up.url };
      const fill = (text) =>
        text
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest's placeholder, filled here
          .replaceAll("${__dirname}", dir)
          .replace(/\$\{user_config\.(\w+)\}/g, (_, k) => String(userConfig[k] ?? ""));
      const { command, args, env } = manifest.server.mcp_config;
      const { client } = await launch(
        "perplexity",
        Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)])),
        command === "node" ? process.execPath : command,
        args.map(fill),
      );
      try {
        const result = await client.callTool({
          name: "perplexity_search_web",
          arguments: { query: "San Francisco" },
        });
        expect(result.isError).not.toBe(true);
        expect(textOf(result)).toContain("en.wikipedia.org/wiki/San_Francisco");
      } finally {
        await client.close();
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("the command line", () => {
  it("a missing required setting stops the server with exit 78, naming the variable", async () => {
    const error = await run(process.execPath, [mainOf("perplexity")], { env: envOf() }).catch((e) => e);
    expect(error.code).toBe(78);
    expect(error.stderr).toContain("PERPLEXITY_API_KEY is not set");
    expect(error.stdout).toBe("");
  });

  it("--help lists the settings with their variables; a wrong argument is exit 2", async () => {
    const { stdout } = await run(process.execPath, [mainOf("perplexity"), "--help"], { env: envOf() });
    expect(stdout).toMatch(/PERPLEXITY_API_KEY\s+\(required, secret\)/);
    expect(stdout).toMatch(/PERPLEXITY_BASE_URL\s+\(optional, default https:\/\/api\.perplexity\.ai\)/);
    const wrong = await run(process.execPath, [mainOf("fda"), "--port", "http"], { env: envOf() }).catch(
      (e) => e,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--port "http" is not a TCP port');
  });

  it("--port serves Streamable HTTP: an MCP client lists the tools at /mcp", async () => {
    const child = spawn(process.execPath, [mainOf("fda"), "--port", "0"], { env: envOf() });
    try {
      const url = await new Promise((resolve, reject) => {
        let err = "";
        child.stderr.on("data", (d) => {
          err += d;
          const m = /(http:\/\/\S+\/mcp)/.exec(err);
          if (m) resolve(m[1]);
        });
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      const client = new Client({ name: "servers-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("fda_search_drugs");
      await client.close();
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });
});

describe("the generated files", () => {
  it("every server package is what the generator writes now, and its server.json would be accepted", async () => {
    const { problems } = await generateServers({ check: true });
    expect(problems).toEqual([]);
  });

  it("the registry's rules catch a long description, a different mcpName and a range version", () => {
    const dir = join(root, "packages", "servers", "fda");
    const doc = JSON.parse(readFileSync(join(dir, "server.json"), "utf8"));
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(serverJsonProblems(doc, pkg)).toEqual([]);
    const bad = { ...doc, description: "x".repeat(101), version: "^1.0.0" };
    const problems = serverJsonProblems(bad, { ...pkg, mcpName: "io.github.someone/fda" });
    expect(problems.join("\n")).toContain("description is 101 characters");
    expect(problems.join("\n")).toContain('mcpName "io.github.someone/fda" is not name');
    expect(problems.join("\n")).toContain('version "^1.0.0" is not one exact version');
    expect(problems.some((p) => p.startsWith("schema: /description"))).toBe(true);
  });

  it("each plugin's README ends with client configs that launch its server package", () => {
    for (const id of SERVED_PLUGINS) {
      const readme = readFileSync(join(root, "packages", "plugins", id, "README.md"), "utf8");
      const section = readme.slice(readme.lastIndexOf("## Use in an MCP client"));
      const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
      expect(blocks).toHaveLength(2);
      const [desktop, vscode] = blocks;
      expect(desktop.mcpServers[id]).toMatchObject({ command: "npx", args: ["-y", `@quiver/${id}-mcp`] });
      expect(vscode.servers[id]).toMatchObject({ type: "stdio", args: ["-y", `@quiver/${id}-mcp`] });
      expect(section).toContain(`[mcp_servers.${id}]`);
    }
  });

  it("mcpb validate accepts every manifest.json", async () => {
    for (const id of SERVED_PLUGINS) {
      const manifest = join(root, "packages", "servers", id, "manifest.json");
      const { stdout, stderr } = await run(join(root, "node_modules", ".bin", "mcpb"), [
        "validate",
        manifest,
      ]);
      // run() rejects on a non-zero exit: a refused manifest fails here with mcpb's list of problems.
      expect(`${stdout}${stderr}`).toContain("Manifest schema validation passes");
    }
  });
});
