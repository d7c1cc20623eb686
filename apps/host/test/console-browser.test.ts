/// <reference lib="dom" />
// (The functions given to page.evaluate run in the browser.)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { closedUrl } from "@quiver/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { type RunningServer, startServer } from "../src/http/start-server.js";
import { ARTIFACTS, browserMissing, launchBrowser } from "./browser.js";
import { makeProject, type Project } from "./helpers.js";

// The browser tests: the console in real headless chromium against a real `quiver serve` (in process,
// on a free port), with the echo plugin, one unconfigured (needs-key) and one that fails to load.
const missing = browserMissing();
if (missing) console.log(`skipping the console's browser tests: ${missing}`);

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let project: Project;
let open: { host: Host; server: RunningServer };
let locked: { host: Host; server: RunningServer };
let browser: Awaited<ReturnType<typeof launchBrowser>>;

const start = async (env: Record<string, string>) => {
  const settings = await resolveSettings({ cwd: project.dir, port: "0" }, env);
  const host = await createHost(settings);
  const server = await startServer(host, { log: () => {} });
  return { host, server };
};

/** Runs axe-core in the page; answers its violations as "rule: nodes" lines. */
const axeViolations = async (page: Page): Promise<string[]> => {
  // Evaluated through the debugging protocol: the page's CSP (script-src 'self') stays on.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: any[] }> } }).axe;
    const r = await axe.run();
    return r.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n: { target: string[] }) => n.target.join(" ")).join(", ")}`,
    );
  });
  return violations;
};

const callsSummary = (page: Page) =>
  page.locator('[data-chart="Calls per second"] .chart-summary').textContent();
const callsCanvas = (page: Page) =>
  page
    .locator('[data-chart="Calls per second"] canvas')
    .evaluate((c) => (c as HTMLCanvasElement).toDataURL());

describe.skipIf(missing !== undefined)("the console in headless chromium", () => {
  beforeAll(async () => {
    // The pinger plugin's upstream is a port nobody listens on: its health check fails.
    const down = await closedUrl();
    project = makeProject({
      fixtures: ["echo", "needs-key", "broken", "pinger"],
      config: {
        name: "quiver.config.json",
        text: JSON.stringify({
          policies: {
            echo_fail: { breaker: { failures: 3, openFor: "10m" } },
            echo_text: { cache: { ttl: "10m" } },
          },
          aliases: { always_fail: "echo_fail" },
        }),
      },
    });
    open = await start({ QUIVER_PRINCIPAL: "local-user", QUIVER_SHUTDOWN_TIMEOUT: "1s", PINGER_URL: down });
    locked = await start({ QUIVER_TOKENS: "tok-alice=alice,tok-bob=bob", QUIVER_SHUTDOWN_TIMEOUT: "1s" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await open?.server.shutdown("test end");
    await locked?.server.shutdown("test end");
    project?.cleanup();
  });

  it("loads, explains the unconfigured and failing plugins, and passes axe-core", async () => {
    const page = await browser.context.newPage();
    const t0 = Date.now();
    await page.goto(`${open.server.url}/`);
    await page.locator('button[data-tool="echo_text"]').waitFor();
    const catalogMs = Date.now() - t0;
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return { domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd };
    });
    const js = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((r) => r.name.endsWith(".js"))
        .map((r) => (r as PerformanceResourceTiming).decodedBodySize),
    );
    console.log(
      `console page: DOMContentLoaded ${Math.round(nav.domContentLoaded)} ms, load ${Math.round(nav.load)} ms, ` +
        `catalog shown ${catalogMs} ms after goto; JS ${js.reduce((a, b) => a + b, 0)} bytes`,
    );

    const needsKey = page.locator('section[aria-label="plugin needs-key"]');
    await expect(needsKey.locator(".badge").textContent()).resolves.toBe("unconfigured");
    await expect(needsKey.locator(".why").textContent()).resolves.toContain("KEYED_API_KEY");
    const broken = page.locator('section[aria-label="plugin quiver-plugin-broken"]');
    await expect(broken.locator(".badge").textContent()).resolves.toBe("failing");
    await expect(broken.locator(".why").textContent()).resolves.toMatch(/Fix:/);
    await expect(page.locator('section[aria-label="plugin echo"] .badge').textContent()).resolves.toBe(
      "ready",
    );
    // A ready plugin whose upstream is down turns "failing" once its health check runs, with why.
    const pinger = page.locator('section[aria-label="plugin pinger"]');
    await expect(pinger.locator(".badge").textContent()).resolves.toBe("ready");
    await page.getByRole("button", { name: "check health of pinger" }).click();
    await pinger.locator(".badge").getByText("failing").waitFor();
    await expect(pinger.locator(".why").textContent()).resolves.toMatch(/unreachable: ECONNREFUSED.*Fix:/);
    await page.screenshot({ path: join(ARTIFACTS, "catalog.png"), fullPage: true });

    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "catalog-dark.png"), fullPage: true });
    await page.close();
  });

  it("finds a tool by typing, calls it through the keyboard-driven form and shows the envelope", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${open.server.url}/`);
    const search = page.getByLabel("Find a tool");
    await search.focus();
    await page.keyboard.type("echoes text");
    await expect(page.locator("button[data-tool]").count()).resolves.toBe(1);
    await page.keyboard.press("Enter");
    await page.locator("#tool-title").getByText("echo_text").waitFor();
    // The example filled the form; type over it with the keyboard and submit with Enter.
    const field = page.getByRole("textbox", { name: "text", exact: true });
    await expect(field.inputValue()).resolves.toBe("hello");
    await field.focus();
    // Visible focus: the focused field has an outline.
    const outline = await field.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe("none");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("hello from the console");
    await page.keyboard.press("Enter");
    const envelope = page.locator("[data-envelope]");
    await envelope.waitFor();
    const shown = JSON.parse((await envelope.textContent()) ?? "{}") as {
      status: string;
      data: { text: string };
      metadata: { attempts: number };
    };
    expect(shown.status).toBe("success");
    expect(shown.data.text).toBe("hello from the console");
    await expect(page.locator("#envelope-title .status").textContent()).resolves.toBe("success");
    // The recent calls list it, with principal, duration, attempts and cache.
    const row = page.locator("table.recent tbody tr").first();
    await row.getByText("echo_text").waitFor();
    await expect(row.textContent()).resolves.toMatch(/local-user.*success.*ms/);
    // The same input again (from another client) is a cache hit: the table and the hit-rate chart say so.
    await fetch(`${open.server.url}/tools/echo_text/call`, {
      method: "POST",
      body: JSON.stringify({ text: "hello from the console" }),
    });
    await page.locator("table.recent tbody tr").first().getByText("hit", { exact: true }).waitFor();
    await page.locator('[data-chart="Cache hit rate (%)"] .chart-summary').getByText("50% hits").waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "call.png"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("moves between tools with the arrow keys and opens one with Enter, focus visible", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${open.server.url}/`);
    await page.getByLabel("Find a tool").focus();
    await page.keyboard.type("echo_");
    await page.keyboard.press("ArrowDown");
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-tool"));
    await expect(focused()).resolves.toBe("echo_text");
    await page.keyboard.press("ArrowDown");
    await expect(focused()).resolves.toBe("echo_whoami");
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(ring).toBe("solid");
    await page.keyboard.press("End");
    await expect(focused()).resolves.toBe("echo_fail");
    await page.keyboard.press("ArrowUp");
    await expect(focused()).resolves.toBe("echo_slow_wait");
    await page.keyboard.press("Enter");
    await page.locator("#tool-title").getByText("echo_slow_wait").waitFor();
    // The submit button, reached by keyboard, calls with Enter.
    await page.getByRole("button", { name: "Call as local-user" }).focus();
    await page.keyboard.press("Enter");
    await page.locator("#envelope-title .status").getByText("success").waitFor();
    await page.close();
  });

  it("updates the charts after a burst of calls", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${open.server.url}/#tool=echo_slow_wait`);
    await page.locator('[data-chart="Calls per second"] canvas').waitFor();
    const before = await callsCanvas(page);
    const summaryBefore = (await callsSummary(page)) ?? "";
    const callsBefore = Number(/^(\d+) calls/.exec(summaryBefore)?.[1] ?? "NaN");
    // Three bursts, each seen by the page's poll before the next: the lines get several points.
    let want = callsBefore;
    for (const burst of [6, 12, 9]) {
      await Promise.all(
        Array.from({ length: burst }, (_, i) =>
          fetch(`${open.server.url}/tools/echo_slow_wait/call`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ ms: 4 * (i + 1) }),
          }).then((r) => r.json()),
        ),
      );
      want += burst;
      await page.waitForFunction(
        (n) => {
          const s =
            document.querySelector('[data-chart="Calls per second"] .chart-summary')?.textContent ?? "";
          return Number(/^(\d+) calls/.exec(s)?.[1]) >= n;
        },
        want,
        { timeout: 15_000 },
      );
    }
    const latency = await page.locator('[data-chart="Latency (ms)"] .chart-summary').textContent();
    expect(latency).toMatch(/p50 \d/);
    expect(await callsCanvas(page)).not.toBe(before);
    // One call through the form too, so the screenshot shows an envelope.
    await page.getByRole("button", { name: "Call as local-user" }).click();
    await page.locator("[data-envelope]").waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "charts.png"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("charts a failing tool's errors by kind and its breaker opening", async () => {
    for (let i = 0; i < 5; i++)
      await fetch(`${open.server.url}/tools/echo_fail/call`, { method: "POST", body: "{}" });
    const page = await browser.context.newPage();
    // Through its alias: the charts are the tool's.
    await page.goto(`${open.server.url}/#tool=always_fail`);
    await page.locator("#charts-title").getByText("Live metrics of echo_fail").waitFor();
    const summary = (title: string) => page.locator(`[data-chart="${title}"] .chart-summary`);
    await summary("Circuit breaker").getByText("open", { exact: true }).waitFor();
    await expect(summary("Errors by kind (per second)").textContent()).resolves.toMatch(/upstream 3/);
    await expect(summary("Errors by kind (per second)").textContent()).resolves.toMatch(/unavailable 2/);
    await page.screenshot({ path: join(ARTIFACTS, "errors.png"), fullPage: true });
    await page.close();
  });

  it("says when its metrics stop (the host went away) and keeps what it had", async () => {
    const gone = await start({ QUIVER_PRINCIPAL: "local-user", QUIVER_SHUTDOWN_TIMEOUT: "1s" });
    const page = await browser.context.newPage();
    await page.goto(`${gone.server.url}/#tool=echo_text`);
    await page.locator(".live").getByText("metrics live").waitFor();
    // What it had: the charts drawn from the live metrics.
    await page.locator('[data-chart="Calls per second"]').waitFor();
    await gone.server.shutdown("test");
    await page
      .locator(".live")
      .getByText(/metrics paused: .*retrying/)
      .waitFor();
    await page.locator('[data-chart="Calls per second"]').waitFor();
    await page.close();
  });

  it("with tokens on, asks for one and calls as the principal it stands for", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${locked.server.url}/`);
    await page.getByRole("alert").getByText("This host needs a bearer token").waitFor();
    await page.getByLabel("Bearer token").fill("tok-alice");
    await page.keyboard.press("Enter");
    await page.locator("[data-principal]").getByText("calling as alice").waitFor();
    await page.locator('button[data-tool="echo_whoami"]').click();
    await page.getByRole("button", { name: "Call as alice" }).click();
    await page.locator("[data-envelope]").getByText('"principal": "alice"').waitFor();
    // Switching the token switches the principal.
    await page.getByLabel("Bearer token").fill("tok-bob");
    await page.getByRole("button", { name: "Switch principal" }).click();
    await page.locator("[data-principal]").getByText("calling as bob").waitFor();
    await page.locator('button[data-tool="echo_whoami"]').click();
    await page.getByRole("button", { name: "Call as bob" }).click();
    await page.locator("[data-envelope]").getByText('"principal": "bob"').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "auth.png"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });
});
