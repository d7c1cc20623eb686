import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { McpToolCaller as Context7McpToolCaller } from "@quiver/plugin-context7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { eventually, HOST_DIR, makeProject, runQuiver } from "./helpers.js";

// The host wires context7's `transport: "mcp"` to a fake Context7 MCP server (McpServer over stdio,
// the documented resolve-library-id / query-docs tools) through @quiver/mcp's connectMcpToolCaller.
const FAKE = join(HOST_DIR, "test", "fixtures", "context7-mcp-server.mjs");
const CONTEXT7 = "@quiver/plugin-context7";
const built = existsSync(join(HOST_DIR, "node_modules", CONTEXT7, "dist", "index.js"));
if (!built) console.log("skipped: build @quiver/plugin-context7 to run the context7-over-MCP tests");

interface Envelope {
  status: string;
  message: string;
  data?: Record<string, unknown>;
  error?: { kind: string; retryable: boolean };
  suggestion?: string;
  guidance?: string;
  metadata: Record<string, unknown>;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Files {
  readonly log: string;
  readonly pid: string;
  readonly down: string;
}

/**
 * A project with context7 configured for the MCP transport (`mcp` built from the fake server's
 * control files), and helpers to read what the fake server saw.
 */
const setup = (mcp: Record<string, unknown> | ((files: Files) => Record<string, unknown>)) => {
  const dir = mkdtempSync(join(tmpdir(), "quiver-ctx7-mcp-"));
  const files: Files = {
    log: join(dir, "calls.jsonl"),
    pid: join(dir, "server.pid"),
    down: join(dir, "down"),
  };
  const config = {
    find: false,
    plugins: {
      context7: { options: { transport: "mcp", mcp: typeof mcp === "function" ? mcp(files) : mcp } },
    },
    // One attempt per call and no circuit or cache, so each call shows what the transport did.
    policies: { "*": { retry: false, breaker: false, cache: false } },
  };
  const project = makeProject({
    workspace: [CONTEXT7],
    config: { name: "quiver.config.json", text: JSON.stringify(config, null, 2) },
  });
  return {
    project,
    files,
    calls: (): Array<{ pid: number; tool: string; args: Record<string, string> }> =>
      existsSync(files.log)
        ? readFileSync(files.log, "utf8")
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l))
        : [],
    pid: () => Number(readFileSync(files.pid, "utf8")),
    cleanup: () => {
      project.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** The fake server over stdio, told where its control files are. */
const fakeServer = (files: Files) => ({
  command: process.execPath,
  args: [FAKE],
  env: { FAKE_CONTEXT7_LOG: files.log, FAKE_CONTEXT7_PID: files.pid, FAKE_CONTEXT7_DOWN: files.down },
});

describe.runIf(built)("context7 with transport mcp, through the MCP client bridge", () => {
  let env: ReturnType<typeof setup>;
  let host: Host;
  let closed = false;
  const call = (name: string, input: unknown) =>
    host.catalog.call(name, input, { session: { id: "s1", principal: "alice" } }) as Promise<Envelope>;

  beforeAll(async () => {
    env = setup(fakeServer);
    host = await createHost(await resolveSettings({ cwd: env.project.dir }, {}));
  });
  afterAll(async () => {
    if (!closed) await host?.close();
    env?.cleanup();
  });

  it("registers context7 ready with an mcpClient in place of the mcp target, without starting the server", () => {
    const plugin = host.plugins.find((p) => p.info.id === "context7");
    expect(host.problems).toEqual([]);
    expect(plugin?.info.status).toBe("ready");
    expect(plugin?.options).toMatchObject({ transport: "mcp" });
    expect(plugin?.options).not.toHaveProperty("mcp");
    // The caller has the shape context7 takes (checked by the typecheck too).
    const caller = plugin?.options.mcpClient as Context7McpToolCaller;
    expect(typeof caller.callTool).toBe("function");
    // The connection opens on the first call: nothing spawned yet.
    expect(existsSync(env.files.pid)).toBe(false);
  });

  it("answers context7_search_documentation through the Context7 MCP server's documented tools", async () => {
    const r = await call("context7_search_documentation", {
      query: "authentication check in middleware",
      library: "next.js",
    });
    expect(r.status, r.message).toBe("success");
    expect(r.message).toContain("Next.js");
    expect(JSON.stringify(r.data)).toContain("Middleware Authentication Example");
    expect(JSON.stringify(r.data)).toContain(
      "https://github.com/vercel/next.js/blob/canary/docs/middleware.mdx",
    );
    expect(r.metadata).toMatchObject({ libraryId: "/vercel/next.js" });
    // resolve-library-id { query, libraryName } then query-docs { libraryId, query }, as apis.md §1.4 documents.
    expect(env.calls().map(({ tool, args }) => ({ tool, args }))).toEqual([
      {
        tool: "resolve-library-id",
        args: { libraryName: "next.js", query: "authentication check in middleware" },
      },
      {
        tool: "query-docs",
        args: { libraryId: "/vercel/next.js", query: "authentication check in middleware" },
      },
    ]);
  });

  it("resolves library ids from the server's text answer", async () => {
    const r = await call("context7_resolve_library_id", { library_name: "react", query: "hooks" });
    expect(r.status, r.message).toBe("success");
    const data = r.data as { best?: string; libraries: Array<{ id: string; trust_score?: number }> };
    expect(data.best).toBe("/facebook/react");
    expect(data.libraries[0]).toMatchObject({ id: "/facebook/react", trust_score: 8 });
  });

  it("a server killed mid-call answers unavailable with guidance, and the next call reconnects", async () => {
    const first = env.pid();
    const running = call("context7_get_library_docs", { library_id: "/vercel/next.js", query: "hang here" });
    await eventually(() => env.calls().some((c) => c.args.query === "hang here"));
    process.kill(first, "SIGKILL");
    const lost = await running;
    expect(lost.status).toBe("unavailable");
    expect(lost.error).toMatchObject({ kind: "unavailable", retryable: true });
    expect(lost.message).toContain('MCP server "context7"');
    expect(lost.message).toContain("context7-mcp-server.mjs");
    expect(lost.guidance).toMatch(/continue without it/);

    const again = await call("context7_get_library_docs", {
      library_id: "/vercel/next.js",
      query: "middleware",
    });
    expect(again.status, again.message).toBe("success");
    expect(env.pid()).not.toBe(first);
  });

  it("a server that cannot start answers unavailable naming its stderr, with a fix and guidance", async () => {
    writeFileSync(env.files.down, "");
    const running = env.pid();
    process.kill(running, "SIGKILL");
    await eventually(() => !alive(running));
    const down = await call("context7_search_documentation", { query: "route handlers", library: "next.js" });
    expect(down.status).toBe("unavailable");
    expect(down.message).toContain("upstream maintenance, refusing to start");
    expect(down.suggestion).toMatch(/Check that the command runs on its own/);
    expect(down.guidance).toMatch(/continue without it/);

    rmSync(env.files.down);
    const back = await call("context7_search_documentation", { query: "route handlers", library: "next.js" });
    expect(back.status, back.message).toBe("success");
  });

  it("closing the host ends the server it spawned", async () => {
    const pid = env.pid();
    expect(alive(pid)).toBe(true);
    closed = true;
    await host.close();
    await eventually(() => !alive(pid));
  });
});

/** A `${NAME}` placeholder as the config file writes it. */
const variable = (name: string) => `$\{${name}}`;

describe.runIf(built)("context7 mcp options the host cannot use", () => {
  it.each([
    [{ command: "" }, /options\.mcp must be \{ command/],
    [{ url: "ftp://example.org/mcp" }, /options\.mcp must be/],
    [
      {
        url: "https://mcp.context7.com/mcp",
        headers: { authorization: `Bearer ${variable("CTX7_TEST_UNSET")}` },
      },
      /\$\{CTX7_TEST_UNSET\}, which is not set/,
    ],
  ])("reports %j as a registration problem with a fix", async (mcp, message) => {
    const env = setup(mcp);
    try {
      const host = await createHost(await resolveSettings({ cwd: env.project.dir }, {}));
      try {
        expect(host.plugins.map((p) => p.info.id)).not.toContain("context7");
        expect(host.problems).toEqual([
          expect.objectContaining({
            package: CONTEXT7,
            kind: "register_failed",
            message: expect.stringMatching(message),
          }),
        ]);
        expect(host.problems[0]?.fix).toMatch(/config file/);
      } finally {
        await host.close();
      }
    } finally {
      env.cleanup();
    }
  });

  it("reads $NAME placeholders in header values from the environment, and keeps the value out of messages", async () => {
    const env = setup({
      url: "http://127.0.0.1:9/mcp",
      headers: { authorization: `Bearer ${variable("CTX7_TEST_KEY")}` },
    });
    try {
      const settings = await resolveSettings(
        { cwd: env.project.dir },
        { CTX7_TEST_KEY: "ctx7sk-secret-value" },
      );
      const host = await createHost(settings);
      try {
        expect(host.problems).toEqual([]);
        const r = (await host.catalog.call("context7_search_documentation", {
          query: "hooks",
          library: "react",
        })) as Envelope;
        expect(r.status).toBe("unavailable");
        expect(r.message).toContain("http://127.0.0.1:9/mcp");
        expect(JSON.stringify(r)).not.toContain("ctx7sk-secret-value");
      } finally {
        await host.close();
      }
    } finally {
      env.cleanup();
    }
  });
});

describe.runIf(built)("quiver call with context7 over MCP (the built CLI)", () => {
  let env: ReturnType<typeof setup>;
  beforeAll(() => {
    env = setup(fakeServer);
  });
  afterAll(() => env?.cleanup());

  it("answers through the fake server and exits, leaving no server behind", async () => {
    const r = await runQuiver(
      [
        "call",
        "context7_search_documentation",
        "--input",
        '{"query":"authentication check in middleware","library":"next.js"}',
        "--json",
      ],
      { cwd: env.project.dir },
    );
    expect(r.code, r.stderr).toBe(0);
    const envelope = JSON.parse(r.stdout) as Envelope;
    expect(envelope.status).toBe("success");
    expect(JSON.stringify(envelope.data)).toContain("Middleware Authentication Example");
    await eventually(() => !alive(env.pid()));
  });
});
