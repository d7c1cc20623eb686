import { PENDING_FIX } from "./cases.js";
import type { CaseResult, MatrixRun } from "./run-matrix.js";

const pad = (s: string, n: number) => (s.length >= n ? `${s.slice(0, n - 1)}… ` : s.padEnd(n));
const lpad = (s: string, n: number) => s.padStart(n);

const outcome = (r: CaseResult) =>
  r.envelope ? `${r.envelope.status}${r.envelope.error ? `/${r.envelope.error.kind}` : ""}` : "-";

/**
 * The matrix as a readable table: one line per plugin call × fault with the envelope's status and
 * error kind, the upstream requests seen, the time and the verdict; then the pendingFix list and
 * every problem of a failing or pending case.
 */
export const formatMatrix = (run: MatrixRun): string => {
  const count = (v: CaseResult["verdict"]) => run.results.filter((r) => r.verdict === v).length;
  const rows = new Set(run.results.map((r) => r.row.id)).size;
  const faults = new Set(run.results.map((r) => r.fault.id)).size;
  const lines = [
    `fault matrix through quiver serve: ${rows} plugin calls × ${faults} faults = ${run.results.length} cases in ${(run.wallMs / 1000).toFixed(1)} s: ` +
      `${count("PASS")} PASS, ${count("FAIL")} FAIL, ${count("PENDING")} PENDING (pendingFix), ${count("FIXED")} FIXED (remove from pendingFix)`,
    "",
    `${pad("plugin call", 27)}${pad("fault", 23)}${pad("status/kind", 27)}${lpad("req", 4)}${lpad("ms", 7)}  verdict`,
  ];
  let last = "";
  for (const r of run.results) {
    if (r.row.id !== last && last !== "") lines.push("");
    last = r.row.id;
    lines.push(
      `${pad(r.row.id, 27)}${pad(r.fault.id, 23)}${pad(outcome(r), 27)}${lpad(r.attempts === undefined ? "-" : String(r.attempts), 4)}${lpad(r.ms === undefined ? "-" : String(r.ms), 7)}  ${r.verdict}`,
    );
  }
  lines.push("", `pendingFix (${PENDING_FIX.length}): known gaps whose fix is not on main yet`);
  for (const p of PENDING_FIX) {
    const verdicts = run.results
      .filter((r) => p.rows.includes(r.row.id) && p.faults.includes(r.fault.id))
      .map((r) => r.verdict);
    lines.push(
      `  ${p.rows.join(", ")} × ${p.faults.join(", ")}: ${p.why} [${[...new Set(verdicts)].join(", ") || "no case"}]`,
    );
  }
  const bad = run.results.filter((r) => r.problems.length > 0);
  if (bad.length > 0) {
    lines.push("", "problems:");
    for (const r of bad) lines.push(`  ${r.verdict} ${r.row.id} × ${r.fault.id}: ${r.problems.join("; ")}`);
  }
  lines.push(
    "",
    `after the matrix: ${run.after.map((a) => `${a.row} ${a.status}`).join(", ")}; /health HTTP ${run.health.status}; exit ${run.exitCode}`,
  );
  return lines.join("\n");
};
