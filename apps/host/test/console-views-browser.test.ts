/// <reference lib="dom" />
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "@quiver/testing";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAfdbEmulator } from "../../../packages/plugins/alphafold/test/support/afdb-emulator.js";
import { startOpenFdaEmulator } from "../../../packages/plugins/fda/test/support/openfda-emulator.js";
import { ARTIFACTS, browserMissing, launchBrowser } from "./browser.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { bandPixels, seriousViolations } from "./view-checks.js";

// The console shows the same MCP Apps views as an apps client: `quiver serve` (fda and alphafold
// against their emulators) in headless chromium; a call of a tool with a view frames the view's
// page (GET /views) in a sandbox, fed through the official AppBridge, its calls and reads going to
// the host's HTTP API.
const missing = browserMissing();
if (missing) console.log(`skipping the console's views browser tests: ${missing}`);

/** Where the screenshots go (gitignored). */
const SHOTS = join(ARTIFACTS, "..", "views");

let fda: Emulator;
let afdb: Emulator;
let project: Project;
let serve: ServeProcess;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  ({ up: fda } = await startOpenFdaEmulator());
  ({ up: afdb } = await startAfdbEmulator());
  project = makeProject({ workspace: ["@quiver/plugin-fda", "@quiver/plugin-alphafold"] });
  writeFileSync(
    join(project.dir, "quiver.config.json"),
    JSON.stringify({
      plugins: {
        fda: { options: { baseUrl: fda.url } },
        alphafold: {
          options: {
            alphafoldUrl: afdb.url,
            uniprotUrl: afdb.url,
            esmfoldUrl: afdb.url,
            inlineStructureMaxChars: 1000,
          },
        },
      },
      policies: { "*": { rateLimit: false }, alphafold_predict_structure: { maxOutputChars: 20_000 } },
      find: false,
    }),
  );
  serve = await startServe([], { cwd: project.dir, env: { QUIVER_PRINCIPAL: "scientist-1" } });
  mkdirSync(SHOTS, { recursive: true });
  if (!missing) browser = await launchBrowser({ webgl: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await fda?.close();
  await afdb?.close();
});

/** The console with `tool` called from its form with `fields` (id → text); the view's frame once it has loaded. */
const callInConsole = async (tool: string, fields: Record<string, string>) => {
  const page = await browser.context.newPage();
  page.on("pageerror", (e) => console.log(`the console threw: ${e.message}`));
  await page.goto(`${serve.url}/`);
  await page.locator(`button[data-tool="${tool}"]`).click();
  await page.locator("#tool-title").getByText(tool).waitFor();
  for (const [id, text] of Object.entries(fields)) await page.locator(`#field-${id}`).fill(text);
  await page.getByRole("button", { name: "Call as scientist-1" }).click();
  await page.locator("[data-envelope]").waitFor();
  const view = () => page.frames().find((f) => f.url().includes("/views?uri="));
  await expect.poll(() => view() !== undefined, { timeout: 10_000 }).toBe(true);
  return { page, frame: view()! };
};

/**
 * A screenshot of the console with the view in sight. Not full-page: chromium lays a framed page
 * with a viewport meta out anew, narrow, while it captures beyond the viewport.
 */
const shoot = async (page: Page, name: string) => {
  await page.locator("section.view").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, name) });
};

/** axe-core's serious violations of the console page and of the view in its frame. */
const consoleViolations = async (page: Page, frame: Frame) => [
  ...(await seriousViolations(page.mainFrame())),
  ...(await seriousViolations(frame)),
];

describe.skipIf(missing !== undefined)("the console shows the tools' MCP Apps views", () => {
  it("a call of fda_search_drugs shows the drug table: it sorts, links each label, refines through the host", async () => {
    const { page, frame } = await callInConsole("fda_search_drugs", {
      search_criteria: JSON.stringify({ active_ingredient: "semaglutide" }),
      max_results: "10",
    });
    const envelope = JSON.parse((await page.locator("[data-envelope]").textContent()) ?? "{}") as {
      data: { matches: unknown[]; total_count: number };
      metadata: { label_uris: Array<string | null> };
    };
    // The plain result is still shown beside the view.
    expect(envelope.data.matches.length).toBeGreaterThan(1);
    const rows = frame.locator("#drugs tbody tr");
    await expect.poll(() => rows.count()).toBe(envelope.data.matches.length);
    await expect
      .poll(() => frame.locator("#status").textContent())
      .toContain(`of ${envelope.data.total_count} matching drugs`);
    // The view's frame: sandboxed (scripts only), its page under the CSP of its resource.
    const iframe = page.locator('iframe[data-view="ui://fda/drugs"]');
    expect(await iframe.getAttribute("sandbox")).toBe("allow-scripts");
    const served = await page.request.get(`${serve.url}/views?uri=${encodeURIComponent("ui://fda/drugs")}`);
    expect(served.headers()["content-security-policy"]).toContain("connect-src 'none'");

    const names = () => frame.locator("#drugs tbody tr td:nth-child(1)").allTextContents();
    await frame.getByRole("button", { name: "Name" }).click();
    const ascending = await names();
    expect(ascending).toEqual(
      [...ascending].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })),
    );
    expect(await frame.locator('th[data-key="name"]').getAttribute("aria-sort")).toBe("ascending");

    // Each match with a label links its fda://label/{set_id} resource; the link reads it through the host.
    const labelled = envelope.metadata.label_uris.filter((u): u is string => typeof u === "string");
    expect(labelled.length).toBeGreaterThan(0);
    const links = frame.locator('#drugs tbody a[href^="fda://label/"]');
    expect(await links.count()).toBe(labelled.length);
    expect(labelled).toContain(await links.first().getAttribute("href"));
    // RYBELSUS's label is one the emulator holds (another set id is a real 404, shown as such).
    await frame.getByRole("link", { name: "Label of RYBELSUS" }).first().click();
    await expect
      .poll(() => frame.locator("#label-title").textContent(), { timeout: 10_000 })
      .toMatch(/^Label: /);
    expect(await frame.locator("#label h3").count()).toBeGreaterThan(0);

    expect(await consoleViolations(page, frame)).toEqual([]);
    await shoot(page, "console-fda-drugs.png");

    // The refinement calls the tool again through the bridge and the HTTP API; the console hears the context.
    await frame.getByLabel("Approved from (year)").fill("2019");
    await frame.getByRole("button", { name: "Search again" }).click();
    await expect.poll(() => frame.locator("#status").textContent()).toMatch(/matching drugs shown/);
    await page.getByText(/The view told the model: The user refined the FDA search/).waitFor();
    await page.close();
  }, 90_000);

  it("a call of alphafold_predict_structure shows the structure, drawn in pLDDT colours", async () => {
    const { page, frame } = await callInConsole("alphafold_predict_structure", {
      uniprot_accession: "Q7Z6M3",
    });
    const canvas = frame.locator("#viewer canvas").first();
    await expect.poll(() => canvas.count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => frame.locator("#status").textContent(), { timeout: 15_000 })
      .toMatch(/AlphaFold DB model AF-Q7Z6M3-F1/);
    // The model file is read through the result's resource link (the bridge → GET /resources?uri=).
    await expect
      .poll(async () => (await bandPixels(page, await canvas.screenshot())).drawn, { timeout: 20_000 })
      .toBeGreaterThan(1000);
    const { counts } = await bandPixels(page, await canvas.screenshot());
    expect(
      counts.filter((c) => c > 50).length,
      `pixels per band ${counts.join(", ")}`,
    ).toBeGreaterThanOrEqual(2);
    expect(await frame.locator("#legend li").count()).toBe(4);
    expect(await consoleViolations(page, frame)).toEqual([]);
    await shoot(page, "console-alphafold-structure.png");
    await page.close();
  }, 90_000);

  it("a tool without a view shows its plain result, and no bridge is loaded", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${serve.url}/`);
    await page.locator('button[data-tool="fda_count_drugs"]').click();
    await page.locator("#tool-title").getByText("fda_count_drugs").waitFor();
    await page.getByRole("button", { name: "Call as scientist-1" }).click();
    await page.locator("[data-envelope]").waitFor();
    expect(await page.locator("iframe").count()).toBe(0);
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((r) => r.name)
        .filter((n) => n.endsWith(".js")),
    );
    expect(scripts.some((s) => s.includes("view-bridge-"))).toBe(false);
    await page.close();
  }, 60_000);
});
