import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Catalog, type CatalogOptions, createCatalog, type ToolResult } from "@quiver/core";
import { closedUrl, useCatalog } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext7Plugin } from "../src/index.js";
import { useContext7Emulator } from "./context7-emulator.js";
import { documented, searchCatalogue } from "./context7-upstream.js";

// The plugin's own `setup` connects `transport: "mcp"` to a stand-in for the official Context7 MCP
// server (McpServer over stdio, the documented resolve-library-id / query-docs tools, the official
// server's request and error-as-text behaviour) with the MCP SDK's client, and closes it with the catalog.
// The stand-in calls the Context7 HTTP emulator, as the real server calls Context7.
const FAKE = new URL("./fixtures/context7-mcp-server.mjs", import.meta.url).pathname;
const CONTEXT = "/api/v2/context";
const SEARCH = "/api/v2/libs/search";

const emu = useContext7Emulator();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls until `check` holds (or fails after `ms`). */
const eventually = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await sleep(25);
  }
};

interface Files {
  readonly dir: string;
  readonly log: string;
  readonly pid: string;
  readonly down: string;
}

const controlFiles = (): Files => {
  const dir = mkdtempSync(join(tmpdir(), "quiver-ctx7-mcp-"));
  return { dir, log: join(dir, "calls.jsonl"), pid: join(dir, "server.pid"), down: join(dir, "down") };
};

/** The fake server over stdio, told where its control files are. */
const fakeServer = (files: Files) => ({
  command: process.execPath,
  args: [FAKE],
  env: { FAKE_CONTEXT7_LOG: files.log, FAKE_CONTEXT7_PID: files.pid, FAKE_CONTEXT7_DOWN: files.down },
});

const calls = (files: Files): Array<{ pid: number; tool: string; args: Record<string, string> }> =>
  existsSync(files.log)
    ? readFileSync(files.log, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
    : [];

/**
 * A catalog with context7 on the MCP transport; one attempt per call, no circuit or cache. `make`
 * makes the catalog (a `useCatalog()` maker closes it after the test).
 */
const mcpCatalog = (
  mcp: unknown,
  env: Record<string, string> = {},
  make: (options: CatalogOptions) => Catalog = createCatalog,
): Catalog => {
  const catalog = make({
    env: { CONTEXT7_API_URL: `${emu.up.url}/api`, ...env },
    policies: { "*": { retry: false, breaker: false, cache: false } },
  });
  catalog.register(createContext7Plugin({ transport: "mcp" }), { mcp });
  return catalog;
};

const session = { session: { id: "s1", principal: "alice" } };

describe("context7 with transport mcp: the plugin connects to the MCP server in setup", () => {
  let files: Files;
  let catalog: Catalog;
  let closed = false;
  const call = (name: string, input: unknown): Promise<ToolResult> => catalog.call(name, input, session);
  const pid = () => Number(readFileSync(files.pid, "utf8"));

  beforeAll(() => {
    files = controlFiles();
    catalog = mcpCatalog(fakeServer(files));
  });
  afterAll(async () => {
    if (!closed) await catalog.close();
    rmSync(files.dir, { recursive: true, force: true });
  });

  it("registers ready without starting the server (the connection opens at the first call)", () => {
    expect(catalog.plugins()[0]).toMatchObject({ id: "context7", status: "ready" });
    expect(existsSync(files.pid)).toBe(false);
  });

  it("answers context7_search_documentation through the server's documented tools", async () => {
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
    expect(calls(files).map(({ tool, args }) => ({ tool, args }))).toEqual([
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
    const first = pid();
    const running = call("context7_get_library_docs", { library_id: "/vercel/next.js", query: "hang here" });
    await eventually(() => calls(files).some((c) => c.args.query === "hang here"));
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
    expect(pid()).not.toBe(first);
  });

  it("a server that cannot start answers unavailable naming its stderr, with a fix and guidance", async () => {
    writeFileSync(files.down, "");
    const running = pid();
    process.kill(running, "SIGKILL");
    await eventually(() => !alive(running));
    const down = await call("context7_search_documentation", { query: "route handlers", library: "next.js" });
    expect(down.status).toBe("unavailable");
    expect(down.message).toContain("upstream maintenance, refusing to start");
    expect(down.suggestion).toMatch(/Check that the command runs on its own/);
    expect(down.guidance).toMatch(/continue without it/);

    rmSync(files.down);
    const back = await call("context7_search_documentation", { query: "route handlers", library: "next.js" });
    expect(back.status, back.message).toBe("success");
  });

  it("closing the catalog ends the server the plugin spawned", async () => {
    const running = pid();
    expect(alive(running)).toBe(true);
    closed = true;
    await catalog.close();
    await eventually(() => !alive(running));
  });
});

describe("context7 with transport mcp: Context7's errors, which the official server returns as text", () => {
  let files: Files;
  let catalog: Catalog;
  const docs = (query = "middleware") =>
    catalog.call("context7_get_library_docs", { library_id: "/vercel/next.js", query }, session);

  beforeAll(() => {
    files = controlFiles();
    catalog = mcpCatalog(fakeServer(files));
  });
  afterAll(async () => {
    await catalog.close();
    rmSync(files.dir, { recursive: true, force: true });
  });

  // Each documented /v2/context answer (docs/openapi.json), served by the HTTP emulator and turned
  // into text by the server as upstream does: never documentation.
  it.each([
    ["429 rate_limit_exceeded", "rate_limited", documented("/v2/context", 429)],
    ["401 invalid_api_key", "access_denied", documented("/v2/context", 401)],
    ["402 spending_limit_exceeded", "access_denied", documented("/v2/context", 402)],
    ["403 access_denied", "access_denied", documented("/v2/context", 403, "accessDenied")],
    ["202 library_not_finalized", "upstream", documented("/v2/context", 202)],
    ["404 no_snippets_found", "out_of_domain", documented("/v2/context", 404, "noSnippetsFound")],
    ["422 no_code_found", "out_of_domain", documented("/v2/context", 422, "noCode")],
    ["422 library_too_large", "constraint_violation", documented("/v2/context", 422, "tooLarge")],
    ["500 internal_error", "unavailable", documented("/v2/context", 500)],
    ["429 without a message", "rate_limited", { status: 429, text: "" }],
    ["502 without a message", "unavailable", { status: 502, text: "Bad Gateway" }],
    ["an empty 200", "upstream", { status: 200, text: "" }],
  ] as const)("query-docs answering %s is %s, not documentation", async (_name, kind, answer) => {
    emu.up.route("GET", CONTEXT, answer);
    const r = await docs(`q ${_name}`);
    expect(r.status, r.message).not.toBe("success");
    expect(r.error?.kind, r.message).toBe(kind);
    expect(r.data).toBeUndefined();
  });

  it("a moved library (301 library_redirected, passed on as text) is followed once and reported", async () => {
    const moved = documented("/v2/context", 301);
    emu.up.route(
      "GET",
      CONTEXT,
      {
        ...moved,
        json: {
          ...(moved.json as object),
          message: "Library /zeit/next.js has been redirected to this library: /vercel/next.js.",
          redirectUrl: "/vercel/next.js",
        },
      },
      { query: { libraryId: "/zeit/next.js" } },
    );
    const r = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/zeit/next.js", query: "moved middleware" },
      session,
    );
    expect(r.status, r.message).toBe("success");
    expect(r.message).toMatch(/\/zeit\/next\.js has moved to \/vercel\/next\.js/);
    expect(JSON.stringify(r.data)).toContain("Middleware Authentication Example");
  });

  it("query-docs when the server cannot reach Context7 is unavailable", async () => {
    const down = mcpCatalog(fakeServer(controlFiles()), { CONTEXT7_API_URL: `${await closedUrl()}/api` });
    try {
      const r = await down.call(
        "context7_get_library_docs",
        { library_id: "/vercel/next.js", query: "middleware" },
        session,
      );
      expect(r.status, r.message).toBe("unavailable");
      expect(r.message).toMatch(/could not reach Context7/);
      const s = await down.call(
        "context7_resolve_library_id",
        { library_name: "react", query: "hooks" },
        session,
      );
      expect(s.status, s.message).toBe("unavailable");
    } finally {
      await down.close();
    }
  });

  it.each([
    ["429 rate_limit_exceeded", "rate_limited", documented("/v2/libs/search", 429)],
    ["401 invalid_api_key", "access_denied", documented("/v2/libs/search", 401)],
    ["402 spending_limit_exceeded", "access_denied", documented("/v2/libs/search", 402)],
    ["503 search_failed", "unavailable", documented("/v2/libs/search", 503)],
  ] as const)("resolve-library-id answering %s is %s, not an empty list", async (_name, kind, answer) => {
    emu.up.route("GET", SEARCH, answer);
    const r = await catalog.call("context7_resolve_library_id", { library_name: `react ${_name}` }, session);
    expect(r.error?.kind, r.message).toBe(kind);
  });

  it("a search under the teamspace's library filters (the server's note before the list) still resolves", async () => {
    emu.up.route("GET", SEARCH, (req) => ({
      json: { results: searchCatalogue(req.query.get("libraryName") ?? ""), searchFilterApplied: true },
    }));
    const r = await catalog.call(
      "context7_resolve_library_id",
      { library_name: "react", query: "filters" },
      session,
    );
    expect(r.status, r.message).toBe("success");
    expect((r.data as { best?: string }).best).toBe("/facebook/react");
  });

  it("a search that matches nothing (404 no_libraries_found) is still 'no library', with no error kind of its own", async () => {
    const r = await catalog.call("context7_resolve_library_id", { library_name: "zzqxv" }, session);
    expect(r.error?.kind, r.message).toBe("invalid_input");
    expect(r.message).toMatch(/no library named "zzqxv"/);
  });
});

describe("context7 mcp settings it cannot use", () => {
  const makeCatalog = useCatalog();

  it.each([[{ command: "" }], [{ url: "ftp://example.org/mcp" }], [{ command: "npx", extra: true }]])(
    "leaves the plugin unconfigured for mcp %j, saying which setting is wrong",
    async (mcp) => {
      const catalog = mcpCatalog(mcp, {}, makeCatalog);
      expect(catalog.plugins()[0]).toMatchObject({ status: "unconfigured" });
      const r = await catalog.call("context7_search_documentation", { query: "hooks", library: "react" });
      expect(r.status).toBe("unavailable");
      expect(r.message).toMatch(/mcp/);
    },
  );

  it("answers unavailable naming an unset $NAME placeholder", async () => {
    const catalog = mcpCatalog(
      { url: "https://mcp.context7.com/mcp", headers: { authorization: `Bearer $\{CTX7_TEST_UNSET}` } },
      {},
      makeCatalog,
    );
    const r = await catalog.call("context7_search_documentation", { query: "hooks", library: "react" });
    expect(r.status).toBe("unavailable");
    expect(r.message).toMatch(/mcp\.headers\.authorization uses \$\{CTX7_TEST_UNSET\}, which is not set/);
  });

  it("a remote server that refuses the credentials (HTTP 401) answers access_denied, without the key", async () => {
    emu.up.route("POST", "/mcp", {
      status: 401,
      json: { error: "invalid_token", error_description: "The access token is invalid" },
    });
    const catalog = mcpCatalog(
      { url: `${emu.up.url}/mcp`, headers: { authorization: `Bearer $\{CTX7_TEST_KEY}` } },
      { CTX7_TEST_KEY: "ctx7sk-refused-value" },
      makeCatalog,
    );
    const r = await catalog.call("context7_search_documentation", { query: "hooks", library: "react" });
    expect(r.error?.kind, r.message).toBe("access_denied");
    expect(r.message).toContain(`${emu.up.url}/mcp`);
    expect(JSON.stringify(r)).not.toContain("ctx7sk-refused-value");
  });

  it("reads $NAME placeholders in header values from the environment, and keeps the value out of messages", async () => {
    const catalog = mcpCatalog(
      { url: "http://127.0.0.1:9/mcp", headers: { authorization: `Bearer $\{CTX7_TEST_KEY}` } },
      { CTX7_TEST_KEY: "ctx7sk-secret-value" },
      makeCatalog,
    );
    const r = await catalog.call("context7_search_documentation", { query: "hooks", library: "react" });
    expect(r.status).toBe("unavailable");
    expect(r.message).toContain("http://127.0.0.1:9/mcp");
    expect(JSON.stringify(r)).not.toContain("ctx7sk-secret-value");
  });
});
