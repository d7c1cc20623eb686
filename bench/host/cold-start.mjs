// Cold start of `quiver list --json` with every first-party plugin the host app depends on (discovery,
// imports, catalog), against `node -e 0` and `quiver list --help` (the CLI without plugins or @quiver/core),
// medians of N rounds; each round runs every command once, so drift on a shared machine hits all of them.
// The host enables Node's compile cache, so runs after the first reuse V8 code: one warm-up round first.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { median, table, target } from "../lib/measure.mjs";
import { CLI, HERE, REPO } from "./support/serve-process.mjs";

/** The issue's target: `quiver list` with every plugin at most this many times `node -e 0`. */
export const LIST_TARGET = 8;

/** The issue's target: `./dev quiver list` (set-up skipped, nothing changed) at most this many times the built CLI. */
export const DEV_TARGET = 1.5;

const time = (args, cwd, extraEnv = {}, command = process.execPath) => {
  const started = process.hrtime.bigint();
  const r = spawnSync(command, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...extraEnv },
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
};

/** The modules a command loads, by package (one extra run with the module-count preload). */
const modulesOf = (args, cwd) => {
  const dir = mkdtempSync(join(tmpdir(), "quiver-bench-modules-"));
  const file = join(dir, "modules.json");
  try {
    const preload = pathToFileURL(join(HERE, "support", "module-count.mjs")).href;
    time(["--import", preload, ...args], cwd, { QUIVER_BENCH_MODULES: file });
    return JSON.parse(readFileSync(file, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export async function run({ runs = 15 } = {}) {
  const hostDir = join(REPO, "apps", "host");
  const cases = [
    { name: "node -e 0", args: ["-e", "0"] },
    { name: "quiver list --help (no plugins loaded)", args: [CLI, "list", "--help"] },
    { name: "quiver --help (discovers plugins for their commands)", args: [CLI, "--help"] },
    {
      name: "./dev quiver list --json (set-up skipped)",
      command: "bash",
      args: [join(REPO, "dev"), "quiver", "list", "--json", "--no-demo"],
    },
    { name: "quiver list --json (every plugin)", args: [CLI, "list", "--json", "--no-demo"] },
  ];
  const list = cases.at(-1);
  const first = time(list.args, hostDir);
  const listed = JSON.parse(first.stdout);
  for (const c of cases) time(c.args, hostDir, {}, c.command);
  const ms = cases.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, c] of cases.entries()) ms[k].push(time(c.args, hostDir, {}, c.command).ms);
  }
  const results = cases.map((c, k) => ({ ...c, median: median(ms[k]), min: Math.min(...ms[k]) }));
  const base = results[0].median;
  const rows = results.map((r) => ({
    command: r.name,
    "median ms": r.median.toFixed(0),
    "min ms": r.min.toFixed(0),
    "× node -e 0": (r.median / base).toFixed(1),
  }));
  const listMs = results.at(-1).median;
  const modules = modulesOf(list.args, hostDir);
  const top = Object.entries(modules.byPackage)
    .slice(0, 8)
    .map(([p, n]) => `${p} ${n}`)
    .join(", ");
  return {
    title: `Cold start: quiver list with every plugin (${listed.plugins.length} plugins, ${listed.tools.length} tools) vs node -e 0, medians of ${runs} rounds`,
    table: table(rows, ["command", "median ms", "min ms", "× node -e 0"]),
    notes: [
      `quiver list = ${listMs.toFixed(0)} ms median, ${(listMs - base).toFixed(0)} ms above a bare node start (first run of this benchmark: ${first.ms.toFixed(0)} ms; later runs reuse Node's compile cache)`,
      `quiver list loads ${modules.total} modules: ${top}, …`,
      `plugins: ${listed.plugins.map((p) => p.id).join(", ")}${listed.problems.length ? `; skipped: ${listed.problems.map((p) => p.package).join(", ")}` : ""}`,
    ],
    targets: [
      target(`quiver list ≤ ${LIST_TARGET}× node -e 0`, listMs / base, { max: LIST_TARGET }),
      target(`./dev quiver list ≤ ${DEV_TARGET}× the built CLI`, results.at(-2).median / listMs, {
        max: DEV_TARGET,
      }),
    ],
    rows,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  console.log(`${r.title}\n${r.table}\n${[...r.notes, ...r.targets.map((t) => t.line)].join("\n")}`);
}
