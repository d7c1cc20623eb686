import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { expect, it } from "vitest";
import { CONSOLE_DIR } from "../src/http/console-assets.js";

/** The console's JavaScript budget (every script the page loads, together). */
const BUDGET = { raw: 100 * 1024, gzip: 40 * 1024 };

it(`keeps the console's JavaScript within ${BUDGET.raw / 1024} KiB (${BUDGET.gzip / 1024} KiB gzipped)`, () => {
  const assets = join(CONSOLE_DIR, "assets");
  const scripts = readdirSync(assets).filter((f) => f.endsWith(".js"));
  expect(scripts.length).toBeGreaterThan(0);
  const bodies = scripts.map((f) => readFileSync(join(assets, f)));
  const raw = bodies.reduce((n, b) => n + b.length, 0);
  const gzip = bodies.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
  console.log(`console JS: ${raw} bytes raw, ${gzip} bytes gzipped (budget ${BUDGET.raw} / ${BUDGET.gzip})`);
  expect(raw).toBeLessThanOrEqual(BUDGET.raw);
  expect(gzip).toBeLessThanOrEqual(BUDGET.gzip);
});
