/// <reference lib="dom" />
// (The functions given to page.evaluate and frame.evaluate run in the browser.)
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import type { Emulator } from "@quiver/testing";
import { build } from "rolldown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAfdbEmulator } from "../../../packages/plugins/alphafold/test/support/afdb-emulator.js";
import { startOpenFdaEmulator } from "../../../packages/plugins/fda/test/support/openfda-emulator.js";
import { ARTIFACTS, browserMissing, launchBrowser } from "./browser.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { bandPixels, seriousViolations } from "./view-checks.js";

// The plugins' MCP Apps views in headless chromium, hosted by the official AppBridge
// (fixtures/views-host/page.ts) and fed with real results of `quiver serve` over MCP in the
// 2026-07-28 era, its fda and alphafold plugins against their emulators.
const missing = browserMissing();
if (missing) console.log(`skipping the views' browser tests: ${missing}`);

/** Where the screenshots go (gitignored). */
const SHOTS = join(ARTIFACTS, "..", "views");
let fda: Emulator;
let afdb: Emulator;
let project: Project;
let serve: ServeProcess;
let client: Client;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let hostPage: string;

beforeAll(async () => {
  ({ up: fda } = await startOpenFdaEmulator());
  ({ up: afdb } = await startAfdbEmulator());
  project = makeProject({ workspace: ["@quiver/plugin-fda", "@quiver/plugin-alphafold"] });
  writeFileSync(
    join(project.dir, "quiver.config.json"),
    JSON.stringify({
      plugins: {
        fda: { options: { baseUrl: fda.url } },
        // A small inline limit and output budget: the model file reaches the answer as a resource link.
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
  client = new Client(
    { name: "views-browser", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`)));
  const bundled = await build({
    input: join(import.meta.dirname, "fixtures", "views-host", "page.ts"),
    platform: "browser",
    write: false,
    logLevel: "silent",
    output: { format: "iife" },
  });
  const script = bundled.output[0].code;
  hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Views test host</title></head><body><main><h1>Views test host</h1></main><script>${script}</script></body></html>`;
  mkdirSync(SHOTS, { recursive: true });
  if (!missing) browser = await launchBrowser({ webgl: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await client?.close().catch(() => {});
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await fda?.close();
  await afdb?.close();
});

/** The tool's view as `quiver serve` lists it: the `ui://` URI in its `_meta`, and the page it reads back. */
const viewOf = async (tool: string) => {
  const listed = (await client.listTools()).tools.find((t) => t.name === tool);
  const uri = (listed?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  expect(uri).toMatch(/^ui:\/\//);
  const { contents } = await client.readResource({ uri: uri! });
  const page = contents[0] as unknown as {
    mimeType: string;
    text: string;
    _meta: { ui: { csp: Record<string, string[]> } };
  };
  expect(page.mimeType).toBe(RESOURCE_MIME_TYPE);
  return { uri: uri!, html: page.text, csp: page._meta.ui.csp };
};

/** A page hosting the view of `tool` for a real call of it; the calls the view made through the host. */
const host = async (tool: string, input: Record<string, unknown>) => {
  const view = await viewOf(tool);
  const result = await client.callTool({ name: tool, arguments: input });
  const page = await browser.context.newPage();
  page.on("pageerror", (e) => console.log(`${tool}'s view threw: ${e.message}`));
  const calls: Array<{ name: string; arguments?: Record<string, unknown> }> = [];
  await page.exposeFunction(
    "mcpCallTool",
    async (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push(params);
      return client.callTool(params);
    },
  );
  await page.exposeFunction("mcpReadResource", (params: { uri: string }) => client.readResource(params));
  await page.setContent(hostPage);
  await page.evaluate((v) => window.mountView(v as never), {
    title: tool,
    html: view.html,
    csp: view.csp,
    input,
    result,
  });
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  return { page, frame, result, calls };
};

describe.skipIf(missing !== undefined)(
  "MCP Apps views in headless chromium, through the official AppBridge",
  () => {
    it("the fda drug table sorts, and its refinement calls fda_search_drugs through the host", async () => {
      const input = { search_criteria: { active_ingredient: "semaglutide" }, max_results: 10 };
      const { page, frame, result, calls } = await host("fda_search_drugs", input);
      const data = (result.structuredContent as { data: { matches: unknown[]; total_count: number } }).data;
      expect(data.matches.length).toBeGreaterThan(1);
      const rows = frame.locator("#drugs tbody tr");
      await expect.poll(() => rows.count()).toBe(data.matches.length);
      await expect
        .poll(() => frame.locator("#status").textContent())
        .toContain(`of ${data.total_count} matching drugs`);

      const column = (n: number) => frame.locator(`#drugs tbody tr td:nth-child(${n})`).allTextContents();
      const sorted = (values: string[], dir: 1 | -1) =>
        [...values].sort((a, b) => dir * a.localeCompare(b, "en", { sensitivity: "base" }));
      await frame.getByRole("button", { name: "Name" }).click();
      expect(await column(1)).toEqual(sorted(await column(1), 1));
      await frame.getByRole("button", { name: "Name" }).click();
      expect(await column(1)).toEqual(sorted(await column(1), -1));
      await frame.getByRole("button", { name: "Approval date" }).click();
      const dates = (await column(4)).filter((d) => d !== "—");
      expect(dates).toEqual([...dates].sort());
      expect(await frame.locator('th[data-key="approval"]').getAttribute("aria-sort")).toBe("ascending");
      await frame.getByRole("button", { name: "Sponsor" }).click();
      expect(await column(3)).toEqual(sorted(await column(3), 1));

      expect(await seriousViolations(frame)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, "fda-drugs.png"), fullPage: true });

      await frame.getByLabel("Approved from (year)").fill("2019");
      await frame.getByRole("button", { name: "Search again" }).click();
      await expect.poll(() => calls.length).toBe(1);
      expect(calls[0]).toMatchObject({
        name: "fda_search_drugs",
        arguments: {
          search_criteria: { active_ingredient: "semaglutide", approval_year: { after: 2019 } },
          max_results: 10,
        },
      });
      await expect.poll(() => frame.locator("#status").textContent()).toMatch(/matching drugs shown/);
      await expect.poll(() => page.evaluate(() => window.modelContext.length)).toBe(1);
      await page.close();
    }, 60_000);

    it("the alphafold structure draws in pLDDT colours, its model read through the resource link", async () => {
      const { page, frame, result } = await host("alphafold_predict_structure", {
        uniprot_accession: "Q7Z6M3",
      });
      const parts = (result.content as Array<{ type: string; uri?: string }>).map((p) => p.type);
      expect(parts).toContain("resource_link");
      const canvas = frame.locator("#viewer canvas").first();
      await expect.poll(() => canvas.count(), { timeout: 15_000 }).toBe(1);
      await expect
        .poll(() => frame.locator("#status").textContent())
        .toMatch(/AlphaFold DB model AF-Q7Z6M3-F1/);
      await expect.poll(() => frame.locator("#low li").count()).toBeGreaterThan(0);
      // The model draws once read through the bridge; every band of the legend is there.
      await expect
        .poll(async () => (await bandPixels(page, await canvas.screenshot())).drawn, { timeout: 20_000 })
        .toBeGreaterThan(1000);
      const { counts } = await bandPixels(page, await canvas.screenshot());
      const inColour = counts.filter((c) => c > 50).length;
      expect(inColour, `pixels per band ${counts.join(", ")}`).toBeGreaterThanOrEqual(2);
      expect(await frame.locator("#legend li").count()).toBe(4);
      expect(await seriousViolations(frame)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, "alphafold-structure.png"), fullPage: true });
      await page.close();
    }, 60_000);
  },
);
