// `./dev bench weight`: non-comment, non-blank lines of the plugins and core beside the 0.1.0 release
// (scripts/weight/count-lines.mjs, `pnpm weight:lines`), and of a scaffolded plugin, against issue
// 36's targets.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureLines } from "../../scripts/weight/lines/measure-lines.mjs";
import { table } from "../lib/measure.mjs";
import { countTarget } from "./support/count-target.mjs";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The release the changes are measured from: its tag, or its commit where the tag is missing. */
const BASES = ["v0.1.0", "4a67bfb"];
const SCAFFOLD = 80;

const exists = (ref) => {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
      cwd: REPO,
      stdio: "ignore",
    });
    return true;
  } catch {
    return false;
  }
};

const pct = (c) => (c === undefined ? "new" : `${c >= 0 ? "+" : ""}${c.toFixed(1)} %`);

/** Counts the lines now and at the base release, and the scaffold's, with the targets. */
export const run = async () => {
  const base = BASES.find(exists);
  const { rows, scaffold } = measureLines(REPO, { base });
  const row = (key) => rows.find((r) => r.key === key);
  const targets = [countTarget(`scaffolded plugin ≤ ${SCAFFOLD} lines`, scaffold.lines, { max: SCAFFOLD })];
  if (base) {
    targets.unshift(
      countTarget(`plugins' lines ≤ −30 % against ${base}`, row("plugins").change, { max: -30, unit: " %" }),
      countTarget(`core + plugins' lines ≤ −20 % against ${base}`, row("core+plugins").change, {
        max: -20,
        unit: " %",
      }),
    );
  }
  return {
    title: `Weight: non-comment, non-blank lines of TypeScript in src/${base ? `, against ${base}` : ""}`,
    table: table(
      rows.map((r) => ({
        package: r.label,
        ...(base ? { [base]: r.base, now: r.lines, change: pct(r.change) } : { now: r.lines }),
      })),
      base ? ["package", base, "now", "change"] : ["package", "now"],
    ),
    notes: [
      `a scaffolded one-tool plugin (pnpm create-plugin): ${scaffold.lines} lines in ${scaffold.files.length} TypeScript files (src ${scaffold.srcLines})`,
      ...(base ? [] : [`no base release found (${BASES.join(", ")}): the changes are not measured`]),
    ],
    targets,
  };
};
