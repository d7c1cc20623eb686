import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, runQuiver } from "./helpers.js";

// The chatty fixture plugin prints to stdout when it loads, in setup and in each run.
let project: Project;
beforeAll(() => {
  project = makeProject({ fixtures: ["chatty"] });
});
afterAll(() => project?.cleanup());

describe("--json keeps stdout to one JSON document, whatever a plugin prints", () => {
  it("quiver list --json: the plugin's console.log goes to stderr", async () => {
    const r = await runQuiver(["list", "--json"], { cwd: project.dir });
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toContain("chatty_say");
    expect(r.stderr).toContain("chatty: loaded\n");
  });

  it("quiver call --json: lines printed in setup and in the run go to stderr", async () => {
    const r = await runQuiver(["call", "chatty_say", "--json"], { cwd: project.dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "success", data: { ok: true } });
    for (const line of ["chatty: loaded", "chatty: setup", "chatty: running", "chatty: info"])
      expect(r.stderr).toContain(`${line}\n`);
  });

  it("without --json the readable output is left as it is (the plugin's lines stay on stdout)", async () => {
    const r = await runQuiver(["call", "chatty_say"], { cwd: project.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("chatty: running");
    expect(r.stdout).toMatch(/success/);
  });
});
