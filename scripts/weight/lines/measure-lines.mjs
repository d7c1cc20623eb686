// The line count of issue 36, item 2: code lines per package row, optionally beside a git ref, and
// the scaffolded plugin's.
import { lineRows, linesByPackage } from "./line-rows.mjs";
import { scaffoldLines } from "./scaffold-lines.mjs";
import { refSources, workingTreeSources } from "./source-files.mjs";

/** The change from `base` to `now` in percent (undefined without a base). */
const change = (now, base) => (base ? ((now - base) / base) * 100 : undefined);

/**
 * `{ rows: [{ label, key?, lines, base?, change? }], scaffold, base? }` for the working tree of
 * `repo`, compared with `base` (a git ref) when given; `scaffold: false` skips the scaffolded plugin.
 *
 * @example
 * const { rows } = measureLines(repo, { base: "v0.1.0" });
 */
export const measureLines = (repo, { base, scaffold = true } = {}) => {
  const now = linesByPackage(workingTreeSources(repo));
  const then = base === undefined ? undefined : linesByPackage(refSources(repo, base));
  const dirs = [...now.keys(), ...(then?.keys() ?? [])];
  const rows = lineRows(now, dirs);
  if (then) {
    const baseRows = lineRows(then, dirs);
    rows.forEach((row, i) => {
      row.base = baseRows[i].lines;
      row.change = change(row.lines, row.base);
    });
  }
  return { base, rows, scaffold: scaffold ? scaffoldLines(repo) : undefined };
};

/** A `measureLines` result as lines of text: a table, then the scaffolded plugin's files. */
export const formatLines = ({ base, rows, scaffold }) => {
  const pct = (c) => (c === undefined ? "new" : `${c >= 0 ? "+" : ""}${c.toFixed(1)} %`);
  const head = base === undefined ? ["package", "lines"] : ["package", base, "now", "change"];
  const body = rows.map((r) =>
    base === undefined
      ? [r.label, String(r.lines)]
      : [r.label, String(r.base), String(r.lines), r.base === 0 && r.lines === 0 ? "" : pct(r.change)],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const out = [
    "Non-comment, non-blank lines of TypeScript in <package>/src (tests and test helpers left out):",
    line(head),
    ...body.map(line),
  ];
  if (scaffold) {
    out.push(
      "",
      `A scaffolded one-tool plugin (pnpm create-plugin): ${scaffold.lines} lines (src ${scaffold.srcLines})`,
    );
    out.push(...scaffold.files.map((f) => `  ${String(f.lines).padStart(4)}  ${f.file}`));
  }
  return out;
};
