// Cold start of `quiver list --json` with every first-party plugin the host app depends on (discovery,
// imports, catalog), against `node -e 0` and `quiver --help` (no plugins loaded), medians of N runs each.
// The host enables Node's compile cache, so runs after the first reuse V8 code: one warm-up run first.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { median, table } from "../lib/measure.mjs";
import { CLI, REPO } from "./support/serve-process.mjs";

const time = (args, cwd) => {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
};

export async function run({ runs = 10 } = {}) {
  const hostDir = join(REPO, "apps", "host");
  const cases = [
    { name: "node -e 0", args: ["-e", "0"] },
    { name: "quiver --help (no plugins loaded)", args: [CLI, "--help"] },
    { name: "quiver list --json (every plugin)", args: [CLI, "list", "--json", "--no-demo"] },
  ];
  const first = time(cases[2].args, hostDir);
  const listed = JSON.parse(first.stdout);
  const results = cases.map((c) => {
    time(c.args, hostDir);
    const ms = [];
    for (let i = 0; i < runs; i++) ms.push(time(c.args, hostDir).ms);
    return { ...c, median: median(ms), min: Math.min(...ms) };
  });
  const base = results[0].median;
  const rows = results.map((r) => ({
    command: r.name,
    "median ms": r.median.toFixed(0),
    "min ms": r.min.toFixed(0),
    "× node -e 0": (r.median / base).toFixed(1),
  }));
  const list = results[2];
  return {
    title: `Cold start: quiver list with every plugin (${listed.plugins.length} plugins, ${listed.tools.length} tools) vs node -e 0, medians of ${runs} runs`,
    table: table(rows, ["command", "median ms", "min ms", "× node -e 0"]),
    notes: [
      `quiver list = ${list.median.toFixed(0)} ms median, ${(list.median - base).toFixed(0)} ms above a bare node start (first run of this benchmark: ${first.ms.toFixed(0)} ms; later runs reuse Node's compile cache)`,
      `plugins: ${listed.plugins.map((p) => p.id).join(", ")}${listed.problems.length ? `; skipped: ${listed.problems.map((p) => p.package).join(", ")}` : ""}`,
    ],
    rows,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  console.log(`${r.title}\n${r.table}\n${r.notes.join("\n")}`);
}
