/**
 * One of issue 36's targets on a count or a change in %: `{ line, pass }` as bench/run.mjs prints
 * them ("target: <label>: <value> PASS"); `max` is inclusive.
 *
 * @example
 * countTarget("call files outside the plugin ≤ 21", 59, { max: 21 }); // FAIL
 */
export const countTarget = (label, value, { max, unit = "" }) => {
  const pass = Number.isFinite(value) && value <= max;
  const shown = unit === " %" ? value.toFixed(1) : String(value);
  return { line: `target: ${label}: ${shown}${unit} ${pass ? "PASS" : "FAIL"}`, pass };
};
