import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../src/config/config-error.js";
import { parseSetFlags, resolveSettings } from "../src/config/resolve-settings.js";

const dirs: string[] = [];
const folder = (files: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), "quiver-config-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const problemsOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
};

describe("config file", () => {
  it("reads quiver.config.json: plugins, options, policies, tokens, principal and server", async () => {
    const cwd = folder({
      "quiver.config.json": JSON.stringify({
        plugins: { fda: { options: { baseUrl: "http://127.0.0.1:9" } }, perplexity: false },
        policies: { "*": { timeout: "20s" }, fda_search_drugs: { cache: { ttl: "2h" }, retry: false } },
        tokens: { "tok-abc": "alice", "env:BOB_TOKEN": "bob" },
        principal: "carol",
        server: {
          host: "0.0.0.0",
          port: 8080,
          allowedOrigins: ["app.example.org"],
          shutdownTimeout: "3s",
          maxSessionsPerPrincipal: 5,
          sessionIdleTimeout: "2m",
        },
      }),
    });
    const settings = await resolveSettings({ cwd }, { BOB_TOKEN: "tok-bob" });
    expect(settings.configFile).toBe(join(cwd, "quiver.config.json"));
    expect(settings.plugins.get("fda")).toEqual({
      enabled: undefined,
      fileOptions: { baseUrl: "http://127.0.0.1:9" },
      flagOptions: {},
    });
    expect(settings.plugins.get("perplexity")?.enabled).toBe(false);
    expect(settings.policies.fda_search_drugs).toEqual({ cache: { ttl: "2h" }, retry: false });
    expect(settings.tokens).toEqual({ "tok-abc": "alice", "tok-bob": "bob" });
    expect(settings.principal).toBe("carol");
    expect(settings.server).toEqual({
      host: "0.0.0.0",
      port: 8080,
      allowedOrigins: ["app.example.org"],
      allowedHosts: ["localhost", "127.0.0.1", "[::1]"],
      shutdownTimeoutMs: 3000,
      stateless: false,
      maxSessionsPerPrincipal: 5,
      maxSessions: 1_000,
      sessionIdleTimeoutMs: 120_000,
    });
  });

  it("lowercases the Host and Origin allowlists from the file, flags and variables (the API and /mcp compare them alike)", async () => {
    const cwd = folder({
      "quiver.config.json": JSON.stringify({
        server: { allowedHosts: ["Quiver.Example.ORG"], allowedOrigins: ["https://App.Example.org"] },
      }),
    });
    const fromFile = await resolveSettings({ cwd }, {});
    expect(fromFile.server.allowedHosts).toEqual(["quiver.example.org"]);
    expect(fromFile.server.allowedOrigins).toEqual(["https://app.example.org"]);
    const fromEnv = await resolveSettings(
      { cwd },
      { QUIVER_ALLOWED_HOSTS: "Edge.Example.ORG, localhost", QUIVER_ALLOWED_ORIGINS: "*" },
    );
    expect(fromEnv.server.allowedHosts).toEqual(["edge.example.org", "localhost"]);
    expect(fromEnv.server.allowedOrigins).toBe("*");
  });

  it("takes several rate limits for one tool, as core's policy does", async () => {
    const limits = [
      { key: "openfda", limit: 240, window: "1m" },
      { key: "openfda-day", limit: 120000, window: "1d" },
    ];
    const cwd = folder({
      "quiver.config.json": JSON.stringify({ policies: { fda_count_drugs: { rateLimit: limits } } }),
    });
    const settings = await resolveSettings({ cwd }, {});
    expect(settings.policies.fda_count_drugs).toEqual({ rateLimit: limits });
    const bad = folder({ "quiver.config.json": JSON.stringify({ policies: { t: { rateLimit: [] } } }) });
    expect((await problemsOf(resolveSettings({ cwd: bad }, {}))).join("\n")).toMatch(/rateLimit/);
  });

  it("reads quiver.config.yaml", async () => {
    const cwd = folder({
      "quiver.config.yaml":
        "demo: true\nplugins:\n  guia:\n    options:\n      guidesDir: ./guias\nserver:\n  port: 7444\n",
    });
    const settings = await resolveSettings({ cwd }, {});
    expect(settings.demo.enabled).toBe(true);
    expect(settings.principal).toBe("demo");
    expect(settings.plugins.get("guia")?.fileOptions).toEqual({ guidesDir: "./guias" });
    expect(settings.server.port).toBe(7444);
  });

  it("uses defaults without a file", async () => {
    const settings = await resolveSettings({ cwd: folder() }, {});
    expect(settings.configFile).toBeUndefined();
    expect(settings.server).toMatchObject({
      host: "127.0.0.1",
      port: 7333,
      shutdownTimeoutMs: 10_000,
      maxSessionsPerPrincipal: 100,
      maxSessions: 1_000,
      sessionIdleTimeoutMs: 1_800_000,
    });
    const env = { QUIVER_MAX_SESSIONS_PER_PRINCIPAL: "3", QUIVER_SESSION_IDLE_TIMEOUT: "90s" };
    expect((await resolveSettings({ cwd: folder() }, env)).server).toMatchObject({
      maxSessionsPerPrincipal: 3,
      sessionIdleTimeoutMs: 90_000,
    });
    const flags = { cwd: folder(), maxSessionsPerPrincipal: "7", sessionIdleTimeout: "5m" };
    expect((await resolveSettings(flags, env)).server).toMatchObject({
      maxSessionsPerPrincipal: 7,
      sessionIdleTimeoutMs: 300_000,
    });
    expect(settings.discover).toBe(true);
    expect(settings.find).toBe(true);
    expect(settings.demo.enabled).toBe(false);
  });

  it("names the file and the key of every invalid value", async () => {
    const cwd = folder({
      "quiver.config.json": JSON.stringify({
        server: { port: "eighty", prot: 1 },
        plugins: { fda: { enabeld: true } },
        policies: { x: { timeout: "soon" } },
        tokenz: {},
      }),
    });
    const problems = await problemsOf(resolveSettings({ cwd }, {}));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^quiver\.config\.json: server\.port: .*number/),
        'quiver.config.json: server: unknown key "prot" (did you mean "port"?)',
        expect.stringMatching(
          /^quiver\.config\.json: plugins\.fda: unknown key "enabeld" \(did you mean "enabled"\?\)/,
        ),
        expect.stringMatching(/^quiver\.config\.json: policies\.x\.timeout: expected a duration/),
        'quiver.config.json: unknown key "tokenz" (did you mean "tokens"?)',
      ]),
    );
  });

  it("a profile: the flag wins over the file; an unknown one names the valid ones", async () => {
    const cwd = folder({ "quiver.config.json": JSON.stringify({ profile: "chatbot" }) });
    expect((await resolveSettings({ cwd }, {})).profile).toBe("chatbot");
    expect((await resolveSettings({ cwd, profile: "co-scientist" }, {})).profile).toBe("co-scientist");
    expect(await problemsOf(resolveSettings({ cwd, profile: "code_agent" }, {}))).toEqual([
      '--profile: unknown profile "code_agent"; the profiles are code-agent, chatbot, co-scientist (did you mean "code-agent"?).',
    ]);
    const typo = folder({ "quiver.config.json": JSON.stringify({ profle: "chatbot" }) });
    expect(await problemsOf(resolveSettings({ cwd: typo }, {}))).toEqual([
      'quiver.config.json: unknown key "profle" (did you mean "profile"?)',
    ]);
  });

  it("reports YAML and JSON syntax errors with the file name", async () => {
    const y = await problemsOf(
      resolveSettings({ cwd: folder({ "quiver.config.yaml": "server:\n  port: [1,\n" }) }, {}),
    );
    expect(y[0]).toMatch(/^quiver\.config\.yaml: /);
    const j = await problemsOf(
      resolveSettings({ cwd: folder({ "quiver.config.json": '{ "demo": tru }' }) }, {}),
    );
    expect(j[0]).toMatch(/^quiver\.config\.json: not valid JSON/);
  });

  it("refuses an explicit config path that does not exist, naming where it came from", async () => {
    const cwd = folder();
    expect(await problemsOf(resolveSettings({ cwd, config: "nope.json" }, {}))).toEqual([
      `--config: the config file ${join(cwd, "nope.json")} does not exist.`,
    ]);
    expect((await problemsOf(resolveSettings({ cwd }, { QUIVER_CONFIG: "gone.yaml" })))[0]).toMatch(
      /^QUIVER_CONFIG: /,
    );
  });
});

describe("precedence: flags > environment > file", () => {
  const file = JSON.stringify({
    server: { port: 7001, host: "127.0.0.2" },
    principal: "file-user",
    plugins: { x: { options: { a: 1 } } },
  });

  it("takes the file when nothing else is set", async () => {
    const s = await resolveSettings({ cwd: folder({ "quiver.config.json": file }) }, {});
    expect([s.server.port, s.server.host, s.principal]).toEqual([7001, "127.0.0.2", "file-user"]);
  });

  it("lets environment variables win over the file", async () => {
    const s = await resolveSettings(
      { cwd: folder({ "quiver.config.json": file }) },
      {
        QUIVER_PORT: "7002",
        QUIVER_HOST: "127.0.0.3",
        QUIVER_PRINCIPAL: "env-user",
        QUIVER_TOKENS: "t1=ann,t2=ben",
      },
    );
    expect([s.server.port, s.server.host, s.principal]).toEqual([7002, "127.0.0.3", "env-user"]);
    expect(s.tokens).toEqual({ t1: "ann", t2: "ben" });
  });

  it("lets flags win over both", async () => {
    const s = await resolveSettings(
      {
        cwd: folder({ "quiver.config.json": file }),
        port: "7003",
        host: "::1",
        principal: "flag-user",
        set: ["x.a=2", "x.b.c=true"],
        disable: ["y"],
      },
      { QUIVER_PORT: "7002", QUIVER_HOST: "127.0.0.3", QUIVER_PRINCIPAL: "env-user" },
    );
    expect([s.server.port, s.server.host, s.principal]).toEqual([7003, "::1", "flag-user"]);
    expect(s.plugins.get("x")).toEqual({
      enabled: undefined,
      fileOptions: { a: 1 },
      flagOptions: { a: 2, b: { c: true } },
    });
    expect(s.plugins.get("y")?.enabled).toBe(false);
  });

  it("finds the config file from QUIVER_CONFIG, and --config over it", async () => {
    const cwd = folder({ "a.yaml": "server:\n  port: 7101\n", "b.json": '{"server":{"port":7102}}' });
    expect((await resolveSettings({ cwd }, { QUIVER_CONFIG: "a.yaml" })).server.port).toBe(7101);
    expect((await resolveSettings({ cwd, config: "b.json" }, { QUIVER_CONFIG: "a.yaml" })).server.port).toBe(
      7102,
    );
  });

  it("rejects malformed environment values and flags by name", async () => {
    const cwd = folder();
    expect(await problemsOf(resolveSettings({ cwd }, { QUIVER_PORT: "http" }))).toEqual([
      'QUIVER_PORT: expected a port number from 0 to 65535, got "http".',
    ]);
    expect((await problemsOf(resolveSettings({ cwd, port: "99999" }, {})))[0]).toMatch(/^--port: /);
    expect((await problemsOf(resolveSettings({ cwd }, { QUIVER_DEMO: "maybe" })))[0]).toMatch(
      /^QUIVER_DEMO: expected true or false/,
    );
    expect((await problemsOf(resolveSettings({ cwd }, { QUIVER_TOKENS: "justatoken" })))[0]).toMatch(
      /^QUIVER_TOKENS: /,
    );
  });

  it("warns when a token variable named in the file is not set", async () => {
    const s = await resolveSettings(
      { cwd: folder({ "quiver.config.json": '{"tokens":{"env:NOPE_TOKEN":"zed"}}' }) },
      {},
    );
    expect(s.tokens).toEqual({});
    expect(s.warnings[0]).toMatch(/NOPE_TOKEN is not set, so "zed" has no token/);
  });
});

describe("--set", () => {
  it("parses values as JSON when they parse, else as strings", () => {
    expect(
      Object.fromEntries(
        parseSetFlags(["fda.baseUrl=http://x:1/a=b", "fda.dailyLimit=5", "rag.deep.flag=false"]),
      ),
    ).toEqual({
      fda: { baseUrl: "http://x:1/a=b", dailyLimit: 5 },
      rag: { deep: { flag: false } },
    });
  });
  it("explains the expected form", () => {
    expect(() => parseSetFlags(["baseUrl=1"])).toThrow(/expected <plugin>\.<option>=<value>/);
  });
});
