/// <reference lib="dom" />
// (The functions given to page.evaluate run in the browser.)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { type RunningServer, startServer } from "../src/http/start-server.js";
import { ARTIFACTS, browserMissing, launchBrowser } from "./browser.js";
import { NOTES } from "./fixtures/plugins/shelf/index.js";
import { makeProject, type Project } from "./helpers.js";

// The console's resource viewer in headless chromium against a real host (in process, on a free port) with
// the shelf and conformance fixture plugins: it lists resources and templates, shows text, JSON pretty and
// binary as its size and a download, fills a template's variables, and reads as the token's principal.
const missing = browserMissing();
if (missing) console.log(`skipping the console's resource viewer tests: ${missing}`);

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let project: Project;
let served: { host: Host; server: RunningServer };
let browser: Awaited<ReturnType<typeof launchBrowser>>;

const axeViolations = async (page: Page): Promise<string[]> => {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: any[] }> } }).axe;
    const r = await axe.run();
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n: any) => n.target.join(" "))}`);
  });
};

/** Opens the console signed in with `token`. */
const signedIn = async (token: string, principal: string) => {
  const page = await browser.context.newPage();
  await page.goto(`${served.server.url}/`);
  await page.getByLabel("Bearer token").fill(token);
  await page.keyboard.press("Enter");
  await page.locator("[data-principal]").getByText(`calling as ${principal}`).waitFor();
  await page.locator('button[data-resource="shelf://readme"]').waitFor();
  return page;
};
const shown = (page: Page) => page.locator(".resource-read");

describe.skipIf(missing !== undefined)("the console's resource viewer in headless chromium", () => {
  beforeAll(async () => {
    project = makeProject({ fixtures: ["shelf", "conformance"] });
    const env = { QUIVER_TOKENS: "tok-alice=alice,tok-bob=bob", QUIVER_SHUTDOWN_TIMEOUT: "1s" };
    const settings = await resolveSettings({ cwd: project.dir, port: "0" }, env);
    const host = await createHost(settings);
    served = { host, server: await startServer(host, { log: () => {} }) };
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.server.shutdown("test end");
    project?.cleanup();
  });

  it("lists the resources and templates, shows text and JSON pretty-printed, and passes axe-core", async () => {
    const page = await signedIn("tok-alice", "alice");
    await expect(page.locator("button[data-resource]").count()).resolves.toBe(6);
    await expect(page.locator("form.template-form").count()).resolves.toBe(2);
    await expect(page.locator(".resource-list").textContent()).resolves.toContain("8 bytes");

    await page.locator('button[data-resource="test://static-text"]').click();
    await shown(page).getByText("Read test://static-text").waitFor();
    await expect(shown(page).locator("[data-resource-text]").textContent()).resolves.toBe(
      "This is the content of the static text resource.",
    );

    await page.locator('button[data-resource="shelf://record"]').click();
    await shown(page).getByText("Read shelf://record").waitFor();
    await expect(shown(page).locator("[data-resource-text]").textContent()).resolves.toBe(
      JSON.stringify({ assay: "ELISA", wells: 96 }, null, 2),
    );
    await page.screenshot({ path: join(ARTIFACTS, "resources.png"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("shows a binary resource as its size and downloads its exact bytes", async () => {
    const page = await signedIn("tok-alice", "alice");
    await page.locator('button[data-resource="shelf://signature.bin"]').click();
    const binary = shown(page).locator("[data-binary]");
    await binary.waitFor();
    await expect(binary.locator("[data-size]").textContent()).resolves.toBe("8 bytes");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      binary.getByRole("link", { name: "Download signature.bin" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("signature.bin");
    const path = await download.path();
    expect(readFileSync(path)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    await page.close();
  });

  it("fills a template's variables and reads the URI they make, as the token's principal", async () => {
    const page = await signedIn("tok-alice", "alice");
    const data = page.getByRole("form", { name: "template template-data" });
    await data.getByLabel("id").fill("42");
    await data.getByRole("button", { name: "Read test://template/42/data" }).click();
    await shown(page).getByText("Read test://template/42/data").waitFor();
    await expect(shown(page).locator("[data-resource-text]").textContent()).resolves.toBe(
      JSON.stringify({ id: "42", templateTest: true, data: "Data for ID: 42" }, null, 2),
    );

    const notes = page.getByRole("form", { name: "template notes" });
    await notes.getByLabel("owner").fill("alice");
    await notes.getByRole("button", { name: "Read shelf://notes/alice" }).click();
    await shown(page).locator("[data-resource-text]").getByText(NOTES.alice).waitFor();
    await page.close();

    // bob reading alice's notes gets the host's not-found message, and nothing of them.
    const asBob = await signedIn("tok-bob", "bob");
    const bobsForm = asBob.getByRole("form", { name: "template notes" });
    await bobsForm.getByLabel("owner").fill("alice");
    await bobsForm.getByRole("button", { name: "Read shelf://notes/alice" }).click();
    await shown(asBob).getByRole("alert").getByText("No resource at shelf://notes/alice.").waitFor();
    await expect(shown(asBob).textContent()).resolves.not.toContain("cohort");
    expect(await axeViolations(asBob)).toEqual([]);
    await asBob.close();
  });
});
