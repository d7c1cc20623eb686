import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ToolResult } from "@quiver/core";
import type { Fault } from "@quiver/testing";
import * as testing from "@quiver/testing";
import { ALL_PLUGINS, eventually, makeProject, type ServeProcess, startServe } from "../helpers.js";
import {
  CALL_TIMEOUT_MS,
  type Expectation,
  MATRIX_FAULTS,
  MATRIX_ROWS,
  type MatrixFault,
  type MatrixRow,
  notConnectionAdvice,
  PENDING_FIX,
} from "./cases.js";
import { type MatrixKeys, pluginSettings, startUpstreams, type Upstreams } from "./upstreams.js";

const PLUGINS = ALL_PLUGINS;

/** How a case ended against its expectation. */
export type Verdict = "PASS" | "FAIL" | "PENDING" | "FIXED";

/** One plugin × fault case, run. */
export interface CaseResult {
  readonly row: MatrixRow;
  readonly fault: MatrixFault;
  readonly expect: Expectation;
  /** The envelope (undefined when the API did not answer one). */
  readonly envelope?: ToolResult;
  /** The HTTP status of the API's answer. */
  readonly httpStatus?: number;
  /** Upstream requests the emulator saw on the faulted path during the case. */
  readonly attempts?: number;
  /** Wall time of the call, in ms. */
  readonly ms?: number;
  readonly problems: ReadonlyArray<string>;
  readonly verdict: Verdict;
  /** Why the case is in PENDING_FIX. */
  readonly pending?: string;
}

/** A row's call without any fault, after all its cases: the host still serves it. */
export interface AfterCall {
  readonly row: string;
  readonly status: string;
}

/** What one run of the matrix gathered. */
export interface MatrixRun {
  readonly results: ReadonlyArray<CaseResult>;
  readonly after: ReadonlyArray<AfterCall>;
  /** `GET /health` after every case. */
  readonly health: { readonly status: number; readonly body: string };
  /** `GET /metrics` after every case. */
  readonly metrics: string;
  /** The plugins' states at the start (from /health). */
  readonly plugins: ReadonlyArray<{ id: string; status: string; message?: string }>;
  /** Everything the serve process printed, and how it exited on SIGTERM. */
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  /** Every envelope and API answer body as received (for the secrets canary). */
  readonly bodies: ReadonlyArray<string>;
  /** The answers to `extraCalls`, in order. */
  readonly extras: ReadonlyArray<string>;
  /** How many MCP `tools/call` answers `mcpFaults` produced (kept in `bodies`). */
  readonly mcpAnswers: number;
  readonly upstreams: Upstreams;
  readonly wallMs: number;
}

/** Options of {@link runMatrix}. */
export interface RunMatrixOptions {
  readonly keys: MatrixKeys;
  /** The bearer tokens' prefix (`<prefix>-<n>`): one principal per case keeps cases apart (cache, stale fallback). */
  readonly tokenPrefix: string;
  /** More arguments for `quiver serve`, e.g. `["--record", dir]`. */
  readonly serveArgs?: ReadonlyArray<string>;
  /** More environment for `quiver serve`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra calls after the matrix (e.g. guia with an unreachable MongoDB), answered bodies kept. */
  readonly extraCalls?: ReadonlyArray<{ readonly tool: string; readonly input: unknown }>;
  /** Paths to GET (with a token) after the matrix, bodies kept, e.g. the console's stats. */
  readonly extraGets?: ReadonlyArray<string>;
  /** Faults under which every row's tool is called once more over MCP (Streamable HTTP), answers kept. */
  readonly mcpFaults?: ReadonlyArray<Fault>;
  /** Rows whose call is left hanging when the host gets SIGTERM (set `QUIVER_SHUTDOWN_TIMEOUT` short). */
  readonly inflightAtShutdown?: ReadonlyArray<string>;
  /** Called after each case (e.g. to read the cassette its call just wrote, before the next case overwrites it). */
  readonly afterCase?: (row: MatrixRow, fault: MatrixFault) => void;
}

/** The pendingFix entries that name this case. */
const pendingOf = (row: MatrixRow, fault: MatrixFault) =>
  PENDING_FIX.filter((p) => p.rows.includes(row.id) && p.faults.includes(fault.id));

/** The problems of an envelope against an expectation; `policyAttempts` is 1 + the tool's retries. */
export const judge = (
  r: ToolResult,
  want: Expectation,
  attempts: number,
  policyAttempts: number,
): string[] => {
  const problems: string[] = [];
  if (!want.status.includes(r.status))
    problems.push(`status ${r.status}, want ${want.status.join("|")} (${r.message})`);
  if (want.kind && !want.kind.includes(r.error?.kind as never))
    problems.push(`kind ${r.error?.kind ?? "none"}, want ${want.kind.join("|")}`);
  if (want.retryable !== undefined && r.error?.retryable !== want.retryable)
    problems.push(`retryable ${r.error?.retryable}, want ${want.retryable}`);
  if (typeof want.attempts === "object") {
    if (attempts < want.attempts.min)
      problems.push(`${attempts} upstream requests, want at least ${want.attempts.min}`);
  } else {
    const wantAttempts = want.attempts === "policy" ? policyAttempts : want.attempts;
    if (wantAttempts !== undefined && attempts !== wantAttempts)
      problems.push(`${attempts} upstream requests, want ${wantAttempts}`);
  }
  if (want.told && !r.suggestion && !r.guidance) problems.push("no suggestion or guidance");
  if (want.suggestion && r.status !== "success" && r.status !== "partial" && !r.suggestion)
    problems.push("no suggestion");
  // Never an empty answer for a failure: a success must carry data.
  if (r.status === "success" && r.data === undefined) problems.push("success without data");
  for (const check of want.checks ?? []) {
    const p = check(r);
    if (p) problems.push(p);
  }
  return problems;
};

const runCase = async (
  server: ServeProcess,
  up: Upstreams,
  row: MatrixRow,
  fault: MatrixFault,
  token: string,
  policyAttempts: number,
  bodies: string[],
): Promise<CaseResult> => {
  const want = row.expect?.[fault.id] ?? fault.expect;
  const entries = pendingOf(row, fault);
  const emulator = up[row.upstream];
  const before = emulator.requestsTo(row.method, row.path).length;
  const handle = emulator.fault(
    row.method,
    row.path,
    fault.fault(up, row),
    fault.times === undefined ? {} : { times: fault.times },
  );
  const started = performance.now();
  let envelope: ToolResult | undefined;
  let httpStatus: number | undefined;
  const problems: string[] = [];
  try {
    const res = await fetch(`${server.url}/tools/${row.tool}/call`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        "x-quiver-timeout-ms": String(fault.timeoutMs ?? CALL_TIMEOUT_MS),
      },
      body: JSON.stringify(row.input(up)),
    });
    httpStatus = res.status;
    const text = await res.text();
    bodies.push(text);
    envelope = JSON.parse(text) as ToolResult;
    if (res.status !== 200) problems.push(`HTTP ${res.status} from the API`);
  } catch (error) {
    problems.push(`the call failed: ${String(error)}`);
  } finally {
    handle.remove();
  }
  const ms = Math.round(performance.now() - started);
  const attempts = emulator.requestsTo(row.method, row.path).length - before;
  if (envelope) {
    try {
      testing.assertEnvelope(envelope);
    } catch (error) {
      problems.push(`not an envelope: ${String(error).slice(0, 200)}`);
    }
    problems.push(...judge(envelope, want, attempts, policyAttempts));
    const misread = fault.noAnswer ? undefined : notConnectionAdvice(envelope);
    if (misread) problems.push(misread);
  }
  if (attempts === 0 && fault.times === undefined) problems.push("the fault never fired");
  // Bounded attempts whatever the expectation: the policy's, twice over for a followed redirect.
  const bound = 2 * Math.max(policyAttempts, 3);
  if (attempts > bound) problems.push(`${attempts} upstream requests, more than ${bound}`);
  // A liveness bound, far above any case's own limit: the call's time limit must hold.
  if (ms > (fault.timeoutMs ?? CALL_TIMEOUT_MS) + 5_000) problems.push(`took ${ms} ms`);
  // Pending when every problem is one a pendingFix entry of this case expects.
  const explained = (p: string) => entries.some((e) => e.problem === undefined || e.problem.test(p));
  const verdict: Verdict =
    problems.length === 0
      ? entries.length > 0
        ? "FIXED"
        : "PASS"
      : problems.every(explained)
        ? "PENDING"
        : "FAIL";
  const pending = entries.map((e) => e.why).join("; ");
  return {
    row,
    fault,
    expect: want,
    ...(envelope ? { envelope } : {}),
    ...(httpStatus !== undefined ? { httpStatus } : {}),
    attempts,
    ms,
    problems,
    verdict,
    ...(pending ? { pending } : {}),
  };
};

const getText = async (url: string, token?: string) => {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, body: await res.text() };
};

/**
 * Runs the whole matrix through one `quiver serve` with every plugin installed: starts the
 * upstreams, the host (keys in the plugins' environment variables, one bearer token per case), runs
 * the lanes side by side (each lane's rows × faults one after the other), then a good call per row,
 * `/health` and `/metrics`, and stops the host with SIGTERM.
 */
export const runMatrix = async (options: RunMatrixOptions): Promise<MatrixRun> => {
  const started = performance.now();
  const up = await startUpstreams(options.keys);
  const settings = pluginSettings(up, options.keys);
  const cases = MATRIX_ROWS.flatMap((row) => MATRIX_FAULTS.map((fault) => ({ row, fault })));
  const tokens: Record<string, string> = {};
  const tokenOf = (n: number) => `${options.tokenPrefix}-${n}`;
  for (let n = 0; n <= cases.length + MATRIX_ROWS.length + 10; n++) tokens[tokenOf(n)] = `case-${n}`;
  const project = makeProject({ workspace: PLUGINS });
  writeFileSync(
    join(project.dir, "quiver.config.json"),
    JSON.stringify({
      plugins: Object.fromEntries(Object.entries(settings.options).map(([id, o]) => [id, { options: o }])),
      // Breakers and rate limits are shared by every call of a plugin: off, so each case stands alone.
      policies: { "*": { breaker: false, rateLimit: false } },
      tokens,
      find: false,
    }),
  );
  const server = await startServe(options.serveArgs ?? [], {
    cwd: project.dir,
    env: { ...settings.env, ...options.env },
  });
  let stdout = "";
  server.child.stdout?.on("data", (d) => (stdout += d));
  const bodies: string[] = [];
  try {
    const health0 = JSON.parse((await getText(`${server.url}/health`)).body) as {
      plugins: Array<{ id: string; status: string; message?: string }>;
    };
    const policyAttempts = new Map<string, number>();
    for (const tool of new Set(MATRIX_ROWS.map((r) => r.tool))) {
      const described = JSON.parse((await getText(`${server.url}/tools/${tool}`, tokenOf(0))).body) as {
        policy?: { retry?: { times?: number } | false };
      };
      const retry = described.policy?.retry;
      policyAttempts.set(tool, 1 + (retry ? (retry.times ?? 0) : 0));
    }
    let next = 1;
    const indexed = cases.map((c) => ({ ...c, token: tokenOf(next++) }));
    const lanes = [...new Set(MATRIX_ROWS.map((r) => r.lane))];
    const extras: string[] = [];
    let mcpAnswers = 0;
    // The extra calls run beside the lanes (their upstreams are none of the matrix's).
    const extraLane = async () => {
      for (const extra of options.extraCalls ?? []) {
        const res = await fetch(`${server.url}/tools/${extra.tool}/call`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${tokenOf(next++)}`,
            "x-quiver-timeout-ms": "15000",
          },
          body: JSON.stringify(extra.input),
        });
        const text = await res.text();
        bodies.push(text);
        extras.push(text);
      }
    };
    const results: CaseResult[] = [];
    const after: AfterCall[] = [];
    await Promise.all([
      extraLane(),
      ...lanes.map(async (lane) => {
        for (const c of indexed.filter((x) => x.row.lane === lane)) {
          results.push(
            await runCase(server, up, c.row, c.fault, c.token, policyAttempts.get(c.row.tool) ?? 1, bodies),
          );
          options.afterCase?.(c.row, c.fault);
        }
        for (const row of MATRIX_ROWS.filter((r) => r.lane === lane)) {
          const res = await fetch(`${server.url}/tools/${row.tool}/call`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${tokenOf(next++)}` },
            body: JSON.stringify(row.input(up)),
          });
          const text = await res.text();
          bodies.push(text);
          after.push({ row: row.id, status: (JSON.parse(text) as ToolResult).status });
        }
      }),
    ]);
    if (options.mcpFaults && options.mcpFaults.length > 0) {
      const client = new Client({ name: "fault-matrix", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${tokenOf(next++)}` } },
        }),
      );
      try {
        await Promise.all(
          lanes.map(async (lane) => {
            for (const row of MATRIX_ROWS.filter((r) => r.lane === lane)) {
              for (const fault of options.mcpFaults ?? []) {
                const handle = up[row.upstream].fault(row.method, row.path, fault);
                try {
                  const answer = await client.callTool({
                    name: row.tool,
                    arguments: row.input(up) as Record<string, unknown>,
                  });
                  bodies.push(JSON.stringify(answer));
                  mcpAnswers++;
                } finally {
                  handle.remove();
                }
              }
            }
          }),
        );
      } finally {
        await client.close();
      }
    }
    for (const path of options.extraGets ?? [])
      bodies.push((await getText(`${server.url}${path}`, tokenOf(0))).body);
    const health = await getText(`${server.url}/health`);
    const metrics = (await getText(`${server.url}/metrics`, tokenOf(0))).body;
    // Calls still running at SIGTERM, cancelled after server.shutdownTimeout: each gets an envelope.
    const inflight = (options.inflightAtShutdown ?? []).map((id) => {
      const row = MATRIX_ROWS.find((r) => r.id === id)!;
      const emulator = up[row.upstream];
      const seen = emulator.requestsTo(row.method, row.path).length;
      emulator.fault(row.method, row.path, { kind: "hang" });
      const answer = fetch(`${server.url}/tools/${row.tool}/call`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${tokenOf(next++)}` },
        body: JSON.stringify(row.input(up)),
      }).then((res) => res.text());
      return { emulator, row, seen, answer };
    });
    for (const c of inflight)
      await eventually(() => c.emulator.requestsTo(c.row.method, c.row.path).length > c.seen);
    server.child.kill("SIGTERM");
    for (const c of inflight) bodies.push(await c.answer);
    for (const c of inflight) c.emulator.clearFaults();
    const exitCode = await server.exited;
    const order = new Map(cases.map((c, i) => [`${c.row.id}\u0000${c.fault.id}`, i]));
    results.sort(
      (a, b) =>
        (order.get(`${a.row.id}\u0000${a.fault.id}`) ?? 0) -
        (order.get(`${b.row.id}\u0000${b.fault.id}`) ?? 0),
    );
    return {
      results,
      after,
      health,
      metrics,
      plugins: health0.plugins,
      stdout,
      stderr: server.stderr(),
      exitCode,
      bodies,
      extras,
      mcpAnswers,
      upstreams: up,
      wallMs: Math.round(performance.now() - started),
    };
  } finally {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
    project.cleanup();
  }
};
