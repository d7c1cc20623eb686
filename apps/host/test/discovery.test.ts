import { VERSION as CORE_VERSION, createCatalog } from "@quiver/core";
import { afterEach, describe, expect, it } from "vitest";
import { checkCoreRange, coreRangeFor } from "../src/discovery/core-range.js";
import { discoverPlugins } from "../src/discovery/discover-plugins.js";
import { FIXTURES, makeProject, type Project } from "./helpers.js";

const projects: Project[] = [];
const project = (opts: Parameters<typeof makeProject>[0]) => {
  const p = makeProject(opts);
  projects.push(p);
  return p;
};
afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});

describe("checkCoreRange", () => {
  it("accepts ranges that include the host's core and workspace links", () => {
    expect(checkCoreRange("^0.1.0", "0.1.4").ok).toBe(true);
    expect(checkCoreRange(coreRangeFor("0.1.4"), "0.3.0").ok).toBe(true);
    expect(checkCoreRange(coreRangeFor("0.3.0"), "0.2.9").ok).toBe(false);
    expect(checkCoreRange(coreRangeFor("0.3.0"), "1.0.0").ok).toBe(false);
    expect(checkCoreRange(">=0.1.0 <1", "0.1.0").ok).toBe(true);
    expect(checkCoreRange("workspace:^", "0.1.0").ok).toBe(true);
    expect(checkCoreRange("workspace:^0.1.0", "0.1.0").ok).toBe(true);
    expect(checkCoreRange(undefined, "0.1.0").ok).toBe(true);
  });
  it("refuses ranges that exclude it, with the reason", () => {
    const v = checkCoreRange("^0.2.0", "0.1.0");
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.reason).toMatch(/needs @quiver\/core \^0\.2\.0, this host runs @quiver\/core 0\.1\.0/);
    expect(checkCoreRange("^1.0.0", "0.1.0").ok).toBe(false);
    expect(checkCoreRange("not a range", "0.1.0").ok).toBe(false);
  });
});

describe("discoverPlugins", () => {
  it("finds plugin packages among the project's dependencies and loads them", async () => {
    const p = project({ fixtures: ["echo", "needs-key"], extraDeps: { "left-pad": "^1.0.0" } });
    const r = await discoverPlugins({ cwd: p.dir });
    expect(r.plugins.map((x) => x.plugin.id).sort()).toEqual(["echo", "needs-key"]);
    expect(r.problems).toEqual([]);
    const echo = r.plugins.find((x) => x.plugin.id === "echo")!;
    expect(echo.candidate).toMatchObject({
      package: "quiver-plugin-echo",
      version: "1.2.0",
      coreRange: ">=0.0.0 <1.0.0",
      source: "dependency",
    });
    expect(echo.plugin.tools.map((t) => t.name)).toContain("echo_text");
    expect(typeof echo.module.echoText).toBe("object");
  });

  it("reports a plugin that throws on import, and still loads the others", async () => {
    const p = project({ fixtures: ["echo", "broken"] });
    const r = await discoverPlugins({ cwd: p.dir });
    expect(r.plugins.map((x) => x.plugin.id)).toEqual(["echo"]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ package: "quiver-plugin-broken", kind: "import_failed" });
    expect(r.problems[0]!.message).toMatch(/left-pad-9000/);
    expect(r.problems[0]!.fix).toMatch(/Reinstall quiver-plugin-broken/);
    expect(r.problems[0]!.detail).toMatch(/index\.js/);
  });

  it("refuses a plugin built for another @quiver/core before importing it", async () => {
    const p = project({ fixtures: ["incompatible", "echo"] });
    const r = await discoverPlugins({ cwd: p.dir });
    expect(r.plugins.map((x) => x.plugin.id)).toEqual(["echo"]);
    expect(r.problems[0]).toMatchObject({ package: "quiver-plugin-incompatible", kind: "incompatible" });
    expect(r.problems[0]!.message).toContain(
      `needs @quiver/core ^9.0.0, this host runs @quiver/core ${CORE_VERSION}`,
    );
    expect(r.problems[0]!.fix).toContain(
      `Install a version of quiver-plugin-incompatible built for @quiver/core ${coreRangeFor(CORE_VERSION)}`,
    );
  });

  it("reports a default export that is not a plugin, and a later specification version", async () => {
    const p = project({ fixtures: ["bad-shape", "future-spec"] });
    const r = await discoverPlugins({ cwd: p.dir });
    expect(r.plugins).toEqual([]);
    const byPkg = Object.fromEntries(r.problems.map((x) => [x.package, x]));
    expect(byPkg["quiver-plugin-bad-shape"]).toMatchObject({ kind: "invalid_shape" });
    expect(byPkg["quiver-plugin-bad-shape"]!.message).toMatch(/no specificationVersion/);
    expect(byPkg["quiver-plugin-future"]).toMatchObject({ kind: "incompatible" });
    expect(byPkg["quiver-plugin-future"]!.message).toMatch(/specification "v2"; this host serves v1/);
  });

  it("reports a plugin whose declared module does not exist (not built)", async () => {
    const p = project({ fixtures: ["unbuilt"] });
    const r = await discoverPlugins({ cwd: p.dir });
    expect(r.problems[0]).toMatchObject({ package: "quiver-plugin-unbuilt", kind: "no_entry" });
    expect(r.problems[0]!.fix).toMatch(/Build quiver-plugin-unbuilt/);
  });

  it("loads packages and paths named in the config, once even when also a dependency", async () => {
    const p = project({ fixtures: ["echo"] });
    const r = await discoverPlugins({
      cwd: p.dir,
      load: [
        `${FIXTURES}/needs-key`,
        `${FIXTURES}/echo/index.js`,
        "quiver-plugin-echo",
        `${FIXTURES}/echo-copy`,
        "quiver-plugin-missing",
      ],
    });
    expect(r.plugins.map((x) => x.plugin.id).sort()).toEqual(["echo", "needs-key"]);
    const dup = r.problems.find((x) => x.kind === "duplicate");
    expect(dup).toMatchObject({ package: "quiver-plugin-echo-copy" });
    expect(dup?.message).toMatch(/plugin id "echo", already loaded from quiver-plugin-echo/);
    const missing = r.problems.find((x) => x.package === "quiver-plugin-missing");
    expect(missing).toMatchObject({ kind: "not_found" });
    expect(missing!.fix).toMatch(/pnpm add quiver-plugin-missing/);
  });

  it("skips packages the config disables without importing them", async () => {
    const p = project({ fixtures: ["echo", "broken"] });
    const r = await discoverPlugins({ cwd: p.dir, skip: (pkg) => pkg === "quiver-plugin-broken" });
    expect(r.problems).toEqual([]);
    expect(r.plugins.map((x) => x.plugin.id)).toEqual(["echo"]);
  });

  it("registers a plugin missing a required setting as unconfigured, its tools answering unavailable", async () => {
    const p = project({ fixtures: ["needs-key"] });
    const r = await discoverPlugins({ cwd: p.dir });
    const catalog = createCatalog({ env: {} });
    try {
      const info = catalog.register(r.plugins[0]!.plugin);
      expect(info.status).toBe("unconfigured");
      expect(info.missing).toEqual(["KEYED_API_KEY"]);
      const res = await catalog.call("keyed_lookup", { q: "x" });
      expect(res.status).toBe("unavailable");
      expect(res.message).toContain("KEYED_API_KEY");
    } finally {
      await catalog.close();
    }
  });
});
