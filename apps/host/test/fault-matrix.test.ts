import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALL_FAULT_KINDS } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MATRIX_FAULTS, MATRIX_ROWS } from "./fault-matrix/cases.js";
import { type MatrixRun, runMatrix } from "./fault-matrix/run-matrix.js";
import { formatMatrix } from "./fault-matrix/table.js";
import { REPO_DIR } from "./helpers.js";

// Issue 13 item 2: every plugin that calls an upstream × every fault the emulator injects, through
// `quiver serve`'s HTTP API. `pnpm test:faults` runs this file alone and prints the table (also
// written to .reports/fault-matrix.txt).

const KEYS = {
  CONTEXT7_API_KEY: "ctx7sk-matrix-key",
  PERPLEXITY_API_KEY: "pplx-matrix-key",
  RAG_API_KEY: "rag-matrix-key",
  LLM_API_KEY: "sk-matrix-key",
  OPENFDA_API_KEY: "openfda-matrix-key",
  MONGODB_URI: "mongodb://matrix:matrix@127.0.0.1:9/quiver",
};

let run: MatrixRun;
beforeAll(async () => {
  run = await runMatrix({ keys: KEYS, tokenPrefix: "tok-matrix" });
  const table = formatMatrix(run);
  console.log(table);
  mkdirSync(join(REPO_DIR, ".reports"), { recursive: true });
  writeFileSync(join(REPO_DIR, ".reports", "fault-matrix.txt"), `${table}\n`);
}, 300_000);
afterAll(async () => {
  await run?.upstreams.close();
});

describe("fault matrix through quiver serve", () => {
  it("serves every plugin that calls an upstream, configured", () => {
    const ready = run.plugins.filter((p) => p.status === "ready").map((p) => p.id);
    for (const plugin of new Set(MATRIX_ROWS.map((r) => r.plugin))) expect(ready).toContain(plugin);
  });

  it("covers every fault kind the emulator injects", () => {
    const covered = new Set(MATRIX_FAULTS.map((f) => f.kind));
    expect(ALL_FAULT_KINDS.filter((k) => !covered.has(k))).toEqual([]);
  });

  const cases = MATRIX_ROWS.flatMap((row) => MATRIX_FAULTS.map((fault) => `${row.id} × ${fault.id}`));
  it.each(cases)("%s", (name) => {
    const r = run.results.find((x) => `${x.row.id} × ${x.fault.id}` === name);
    expect(r, "the case ran").toBeDefined();
    // PENDING (a fix on the http branch) is listed in the table, not a failure.
    expect(r!.verdict === "FAIL" ? r!.problems : []).toEqual([]);
  });

  it("still serves afterwards: every call succeeds again without a fault, /health is ok", () => {
    expect(run.after.filter((a) => a.status !== "success")).toEqual([]);
    expect(run.after.length).toBe(MATRIX_ROWS.length);
    expect(run.health.status).toBe(200);
    expect(JSON.parse(run.health.body).status).toBe("ok");
  });

  it("has no unhandled rejection or uncaught exception, and exits 0 on SIGTERM", () => {
    expect(`${run.stderr}\n${run.stdout}`).not.toMatch(/unhandled|uncaught|triggerUncaughtException/i);
    expect(run.exitCode).toBe(0);
  });
});
