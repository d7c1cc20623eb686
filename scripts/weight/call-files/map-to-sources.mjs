// Maps covered functions of built bundles (`dist/*.js`) back to their original source files through
// each bundle's source map (its `//# sourceMappingURL=` comment).
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LEAST_UPPER_BOUND, originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";

/** The start offset of each line of `text`. */
const lineStarts = (text) => {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
};

/** A 0-based character offset as a 1-based line and 0-based column. */
const position = (starts, offset) => {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] };
};

/** The script's text, line starts and source map, or undefined when it has none. */
const loadScript = (path) => {
  const text = readFileSync(path, "utf8");
  const comment = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text);
  if (!comment || comment[1].startsWith("data:")) return undefined;
  const mapPath = resolve(dirname(path), comment[1]);
  if (!existsSync(mapPath)) return undefined;
  const raw = JSON.parse(readFileSync(mapPath, "utf8"));
  const root = resolve(dirname(mapPath), raw.sourceRoot ?? "");
  return { starts: lineStarts(text), map: new TraceMap(raw), root };
};

/**
 * The original file of each function in `functions` (`{ url, start, ... }` from coverage) whose
 * script is a file under `within`: `{ mapped: [{ ...fn, source }], unmapped: [...] }`. A script
 * without a source map, or a position no mapping covers, lands in `unmapped`.
 *
 * @example
 * const { mapped } = mapToSources(functions, "/work/main");
 */
export const mapToSources = (functions, within) => {
  const scripts = new Map();
  const mapped = [];
  const unmapped = [];
  for (const fn of functions) {
    if (!fn.url.startsWith("file://")) continue;
    const path = fileURLToPath(fn.url);
    if (!path.startsWith(`${within}/`) || path.includes("/node_modules/")) continue;
    if (!scripts.has(path)) scripts.set(path, loadScript(path));
    const script = scripts.get(path);
    if (!script) {
      unmapped.push({ ...fn, path });
      continue;
    }
    const at = position(script.starts, fn.start);
    // The function's first token; a bundler may leave it unmapped (e.g. `async`), so the nearest
    // mapping after it on the same line is the next best.
    let found = originalPositionFor(script.map, at);
    if (found.source === null) found = originalPositionFor(script.map, { ...at, bias: LEAST_UPPER_BOUND });
    if (found.source === null) unmapped.push({ ...fn, path });
    else mapped.push({ ...fn, path, source: resolve(script.root, found.source), line: found.line });
  }
  return { mapped, unmapped };
};
