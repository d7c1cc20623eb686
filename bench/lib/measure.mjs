// Timing helpers shared by the benchmarks: warm up, then time rounds of sequential calls and
// report the median nanoseconds per call (machines here are noisy: medians, never means).

/** Median of a list of numbers. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Times `fn(i)` (sync or async) `iterations` times per round over `rounds` rounds after a warm-up;
 * returns the median ns per call across rounds.
 */
export const timePerCall = async (fn, { iterations = 2_000, rounds = 7, warmup = 500 } = {}) => {
  let i = 0;
  for (let w = 0; w < warmup; w++) await fn(i++);
  const perRound = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let k = 0; k < iterations; k++) await fn(i++);
    perRound.push(Number(process.hrtime.bigint() - start) / iterations);
  }
  return median(perRound);
};

/** Formats rows as an aligned text table. */
export const table = (rows, columns) => {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)));
  const line = (cells) => cells.map((c, i) => String(c ?? "").padEnd(widths[i])).join("  ");
  return [
    line(columns),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(columns.map((c) => r[c]))),
  ].join("\n");
};

/**
 * One of the targets as a ratio measured in this run: `{ line, pass }`, where `line` reads
 * "target: <label> ≤ 8×: 6.1× PASS". Give `max` for "at most" targets, `min` for "at least" ones.
 * `pnpm bench` prints every module's target lines again at the end.
 *
 * @example
 * target("quiver list ≤ 8× node -e 0", listMs / nodeMs, { max: 8 })
 */
export const target = (label, ratio, { max, min }) => {
  const pass =
    Number.isFinite(ratio) && (max === undefined || ratio <= max) && (min === undefined || ratio >= min);
  return { line: `target: ${label}: ${ratio.toFixed(2)}× ${pass ? "PASS" : "FAIL"}`, pass };
};
