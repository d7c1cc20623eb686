import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CONSOLE_DIR } from "../src/http/console-assets.js";

/** The console's first-load JavaScript budget: every script the page loads before any view is shown. */
const BUDGET = { raw: 100 * 1024, gzip: 40 * 1024 };
/** The MCP Apps bridge's chunk, loaded only when a result is shown in its view. */
const BRIDGE_BUDGET = { raw: 256 * 1024, gzip: 64 * 1024 };

const assets = join(CONSOLE_DIR, "assets");
const scripts = readdirSync(assets).filter((f) => f.endsWith(".js"));
const size = (files: ReadonlyArray<string>) => {
  const bodies = files.map((f) => readFileSync(join(assets, f)));
  return {
    raw: bodies.reduce((n, b) => n + b.length, 0),
    gzip: bodies.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0),
  };
};

/** The scripts index.html loads and, from them, every static import (not `import()`), transitively. */
const firstLoad = (): string[] => {
  const html = readFileSync(join(CONSOLE_DIR, "index.html"), "utf8");
  const queue = [...html.matchAll(/(?:src|href)="\/console\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(assets, file), "utf8");
    // `import … from"./x.js"` and `import"./x.js"`; a dynamic `import(`./x.js`)` is not matched.
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) queue.push(m[1]!);
  }
  return [...seen];
};

describe("the console's JavaScript", () => {
  it(`loads at most ${BUDGET.raw / 1024} KiB (${BUDGET.gzip / 1024} KiB gzipped) before a view is shown`, () => {
    const first = firstLoad();
    expect(first.length).toBeGreaterThan(0);
    expect(first.some((f) => f.startsWith("view-bridge-"))).toBe(false);
    const { raw, gzip } = size(first);
    console.log(
      `console first load: ${raw} bytes raw, ${gzip} gzipped (budget ${BUDGET.raw} / ${BUDGET.gzip})`,
    );
    expect(raw).toBeLessThanOrEqual(BUDGET.raw);
    expect(gzip).toBeLessThanOrEqual(BUDGET.gzip);
  });

  it(`keeps the views' bridge in a chunk of its own within ${BRIDGE_BUDGET.gzip / 1024} KiB gzipped`, () => {
    const bridge = scripts.filter((f) => f.startsWith("view-bridge-"));
    expect(bridge).toHaveLength(1);
    const { raw, gzip } = size(bridge);
    console.log(
      `views' bridge: ${raw} bytes raw, ${gzip} gzipped (budget ${BRIDGE_BUDGET.raw} / ${BRIDGE_BUDGET.gzip})`,
    );
    expect(raw).toBeLessThanOrEqual(BRIDGE_BUDGET.raw);
    expect(gzip).toBeLessThanOrEqual(BRIDGE_BUDGET.gzip);
    // Every script is either loaded first or is the bridge: no chunk escapes both budgets.
    expect([...firstLoad(), ...bridge].sort()).toEqual([...scripts].sort());
  });
});
