import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Emulator, Fault, TcpRelay } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import type { MatrixKeys } from "../fault-matrix/upstreams.js";
import { CLI, cleanEnv, REPO_DIR } from "../helpers.js";

/** The Python seed suites (standard library only): `clients/python`. */
export const PYTHON_DIR = join(REPO_DIR, "clients", "python");

/** A recorded file of the seed suites' upstream fixtures (see fixtures/README.md). */
export const fixture = (name: string): URL => new URL(`./fixtures/${name}`, import.meta.url);

/**
 * Debian's python3, or why it is missing. CI installs it (scripts/services.sh); on a machine without it
 * the suites skip with that reason locally and fail on CI, as the browser tests do with chromium.
 */
export const pythonMissing = (): string | undefined => {
  try {
    const version = execFileSync("python3", ["--version"], { encoding: "utf8" }).trim();
    const minor = Number(/^Python 3\.(\d+)/.exec(version)?.[1] ?? 0);
    return minor >= 10 ? undefined : `${version} is older than the suites' Python 3.10`;
  } catch {
    return "python3 is not installed (scripts/services.sh installs Debian's)";
  }
};

/** Why the suites cannot run here, once per test file (undefined: python3 is there). */
export const PYTHON_MISSING: string | undefined = pythonMissing();

/** What a Python suite printed and how it ended. */
export interface PythonRun {
  readonly code: number | null;
  /** stdout and stderr interleaved (unittest reports on stderr). */
  readonly output: string;
}

/**
 * Runs `python3 -m unittest -v tests.<module>` in clients/python with a clean environment plus `env`,
 * in strict mode (`QUIVER_SEED_STRICT=1`: a test whose setting is missing fails instead of skipping).
 */
export const runPythonSuite = (
  module: string,
  env: Readonly<Record<string, string>>,
  timeoutMs = 240_000,
): Promise<PythonRun> =>
  new Promise((resolve, reject) => {
    const child = spawn("python3", ["-m", "unittest", "-v", `tests.${module}`], {
      cwd: PYTHON_DIR,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        LANG: "C.UTF-8",
        PYTHONDONTWRITEBYTECODE: "1",
        PYTHONUNBUFFERED: "1",
        QUIVER_SEED_STRICT: "1",
        ...env,
      },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output: killed ? `${output}\n[killed after ${timeoutMs / 1000} s]\n` : output });
    });
  });

/** The Python suites' handle on the emulated upstreams. */
export interface ControlServer {
  readonly url: string;
  close(): Promise<void>;
}

const readJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
};

const answer = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

/**
 * Serves the control API the Python suites drive (clients/python/quiver_seed/upstreams.py) on 127.0.0.1:
 * `POST /faults` puts an emulator fault on an upstream (`{upstream, method, path | pathRegex, fault,
 * times?}`), `DELETE /faults` clears them all, `POST|DELETE /outages/<name>` stops or restarts a TCP
 * relay (the upstream refuses connections), `GET /requests?upstream&method&pathRegex` counts requests.
 * A small node:http server: it only forwards to the emulators' own API, so no framework is needed.
 */
export const startControl = async (
  upstreams: Readonly<Record<string, Emulator>>,
  relays: Readonly<Record<string, TcpRelay>> = {},
): Promise<ControlServer> => {
  const upstream = (name: unknown) => {
    const up = upstreams[String(name)];
    if (!up) throw new Error(`unknown upstream ${String(name)}; known: ${Object.keys(upstreams).join(", ")}`);
    return up;
  };
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://control");
      const outage = /^\/outages\/([\w-]+)$/.exec(url.pathname);
      if (url.pathname === "/faults" && req.method === "POST") {
        const b = await readJson(req);
        const path = typeof b.pathRegex === "string" ? new RegExp(b.pathRegex) : String(b.path);
        upstream(b.upstream).fault(
          String(b.method),
          path,
          b.fault as Fault,
          typeof b.times === "number" ? { times: b.times } : {},
        );
        return answer(res, 200, { ok: true });
      }
      if (url.pathname === "/faults" && req.method === "DELETE") {
        for (const up of Object.values(upstreams)) up.clearFaults();
        return answer(res, 200, { ok: true });
      }
      if (outage && (req.method === "POST" || req.method === "DELETE")) {
        const relay = relays[outage[1]!];
        if (!relay) return answer(res, 404, { error: `no relay for ${outage[1]}` });
        await (req.method === "POST" ? relay.stop() : relay.start());
        return answer(res, 200, { ok: true });
      }
      if (url.pathname === "/requests" && req.method === "GET") {
        const q = url.searchParams;
        const seen = upstream(q.get("upstream")).requestsTo(
          q.get("method") ?? "*",
          new RegExp(q.get("pathRegex") ?? ".*"),
        );
        return answer(res, 200, { count: seen.length });
      }
      return answer(res, 404, { error: "no such control route" });
    } catch (error) {
      return answer(res, 400, { error: error instanceof Error ? error.message : String(error) });
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/**
 * The project config every seed server shares: the breaker off, because the suites make the same
 * upstream fail more than five times in a row on purpose (unavailable, 503, escalation, over HTTP and
 * MCP) and each later success must still reach the upstream; the breaker has its own tests in core.
 */
export const SEED_POLICIES = { "*": { breaker: false } } as const;

/** The API keys the seed servers are started with (test values; none is real). */
export const SEED_KEYS: MatrixKeys = {
  CONTEXT7_API_KEY: "ctx7sk-seed-python",
  PERPLEXITY_API_KEY: "pplx-seed-python",
  RAG_API_KEY: "rag-seed-python",
  LLM_API_KEY: "sk-seed-python",
  OPENFDA_API_KEY: "openfda-seed-python",
  MONGODB_URI: "mongodb://seed:seed@127.0.0.1:9/quiver",
};

/**
 * `QUIVER_SEED_HOLD=<seconds>`: print the suite's environment and keep the servers and emulators up that
 * long before the suite runs, so a developer can run the Python tests (or curl) by hand against them.
 */
const holdForDeveloper = async (module: string, env: Readonly<Record<string, string>>) => {
  const seconds = Number(process.env.QUIVER_SEED_HOLD ?? 0);
  if (!(seconds > 0)) return;
  const exports = Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  console.log(`holding ${seconds} s; in clients/python: ${exports} python3 -m unittest -v tests.${module}`);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
};

/**
 * One vitest case that runs a profile's Python suite with the environment `env()` gives (read when the
 * case runs, after `beforeAll` started the servers), asserts exit 0 and no skipped test, and prints
 * Python's report when it fails. Without python3 it is skipped with the reason locally, and fails on CI.
 */
export const describePythonSuite = (
  title: string,
  module: string,
  env: () => Readonly<Record<string, string>>,
): void => {
  if (PYTHON_MISSING && !process.env.CI) {
    console.warn(`${module}: skipped: ${PYTHON_MISSING}`);
    describe.skip(title, () => it(`tests/${module}.py`, () => undefined));
    return;
  }
  describe(title, () => {
    it(`passes tests/${module}.py`, {
      timeout: 300_000 + Number(process.env.QUIVER_SEED_HOLD ?? 0) * 1000,
    }, async () => {
      expect(PYTHON_MISSING, PYTHON_MISSING).toBeUndefined();
      const suiteEnv = env();
      await holdForDeveloper(module, suiteEnv);
      const run = await runPythonSuite(module, suiteEnv);
      // unittest's own report (one line per test), in the log whether it passed or not.
      console.log(run.output);
      expect(run.code, "python3 -m unittest exit code (its report is printed above)").toBe(0);
      expect(run.output, "strict mode skips nothing").not.toMatch(/skipped/);
    });
  });
};

/**
 * What a Python suite needs to start a profile itself over MCP stdio (`QUIVER_STDIO_COMMAND`, `_CWD`,
 * `_ENV`), as the seed systems start their MCP servers: the built CLI with `serve --stdio --profile`.
 */
export const stdioSettings = (
  profile: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
  args: ReadonlyArray<string> = [],
): Record<string, string> => ({
  QUIVER_STDIO_COMMAND: JSON.stringify([
    process.execPath,
    CLI,
    "serve",
    "--stdio",
    "--profile",
    profile,
    ...args,
  ]),
  QUIVER_STDIO_CWD: cwd,
  QUIVER_STDIO_ENV: JSON.stringify(cleanEnv(env)),
});
