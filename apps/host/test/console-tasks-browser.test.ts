/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { type RunningServer, startServer } from "../src/http/start-server.js";
import { browserMissing, launchBrowser } from "./browser.js";
import { eventually, makeProject, type Project } from "./helpers.js";
import { startHoldServer } from "./hold-server.js";

// The console's "Your tasks" panel in headless chromium against a real `quiver serve` (in process):
// alice's running task with its progress, bob's not shown, and the cancel button stopping the work.
const missing = browserMissing();
if (missing) console.log(`skipping the console's task browser test: ${missing}`);

let project: Project;
let hold: Awaited<ReturnType<typeof startHoldServer>>;
let served: { host: Host; server: RunningServer };
let browser: Awaited<ReturnType<typeof launchBrowser>>;

describe.skipIf(missing !== undefined)("the console's tasks in headless chromium", () => {
  beforeAll(async () => {
    hold = await startHoldServer();
    project = makeProject({ fixtures: ["tasky"] });
    const settings = await resolveSettings(
      { cwd: project.dir, port: "0" },
      { QUIVER_TOKENS: "tok-a=alice,tok-b=bob", TASKY_URL: hold.url, QUIVER_SHUTDOWN_TIMEOUT: "1s" },
    );
    const host = await createHost(settings);
    served = { host, server: await startServer(host, { log: () => {} }) };
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.server.shutdown("test end");
    await hold?.close();
    project?.cleanup();
  });

  it("lists the caller's running task with its progress, and Cancel stops it", async () => {
    const start = (token: string, label: string) =>
      fetch(`${served.server.url}/tools/tasky_slow/call`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          prefer: "respond-async",
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ label }),
      });
    expect((await start("tok-a", "console-alice")).status).toBe(202);
    expect((await start("tok-b", "console-bob")).status).toBe(202);
    await eventually(() => hold.held.has("console-alice") && hold.held.has("console-bob"));

    const page = await browser.context.newPage();
    await page.goto(`${served.server.url}/`);
    await page.getByLabel("Bearer token").fill("tok-a");
    await page.keyboard.press("Enter");
    await page.locator("[data-principal]").getByText("calling as alice").waitFor();
    const row = page.locator('[data-tasks] tr[data-task="working"]');
    await row.getByText("console-alice: halfway").waitFor();
    expect(await page.locator("[data-tasks] tbody tr").count()).toBe(1);
    await row.getByRole("button", { name: "Cancel tasky_slow" }).click();
    await page.locator('[data-tasks] tr[data-task="cancelled"]').waitFor();
    await eventually(() => hold.aborted.has("console-alice"));
    expect(hold.aborted.has("console-bob")).toBe(false);
    await page.close();
    await hold.release("console-bob");
  });
});
