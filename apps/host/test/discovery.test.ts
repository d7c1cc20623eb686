import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION as CORE_VERSION } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { afterEach, describe, expect, it } from "vitest";
import { checkCoreRange, coreRangeFor } from "../src/discovery/core-range.js";
import { discoverPlugins } from "../src/discovery/discover-plugins.js";
import { coreCopyFrom, hostInstallRoot } from "../src/discovery/host-install.js";
import { FIXTURES, HOST_DIR, makeProject, type Project } from "./helpers.js";

const projects: Project[] = [];
const project = (opts: Parameters<typeof makeProject>[0]) => {
  const p = makeProject(opts);
  projects.push(p);
  return p;
};
afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});
const makeCatalog = useCatalog({ env: {} });

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
    expect(missing!.fix).toMatch(/npm install quiver-plugin-missing/);
    expect(missing!.message).toMatch(/named with --plugin or under "load"/);
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
    const catalog = makeCatalog();
    const info = catalog.register(r.plugins[0]!.plugin);
    expect(info.status).toBe("unconfigured");
    expect(info.missing).toEqual(["KEYED_API_KEY"]);
    const res = await catalog.call("keyed_lookup", { q: "x" });
    expect(res.status).toBe("unavailable");
    expect(res.message).toContain("KEYED_API_KEY");
  });
});

describe("plugins installed beside the host (npx -p @quiver/host -p <plugin>)", () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = realpathSync(mkdtempSync(join(tmpdir(), "quiver-beside-")));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  /** An npx cache folder as npm lays it out: a package.json naming the -p packages, node_modules. */
  const npxFolder = () => {
    const root = tmp();
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({ dependencies: { "@quiver/host": "0.1.0", "quiver-plugin-echo": "1.2.0" } }),
    );
    mkdirSync(join(root, "node_modules", "@quiver", "host", "dist"), { recursive: true });
    writeFileSync(join(root, "node_modules", "@quiver", "host", "dist", "cli.js"), "");
    symlinkSync(join(FIXTURES, "echo"), join(root, "node_modules", "quiver-plugin-echo"));
    return root;
  };

  it("finds the folder the host is installed in, npm's and pnpm's layouts, none from a checkout", () => {
    const root = npxFolder();
    expect(hostInstallRoot(join(root, "node_modules", "@quiver", "host", "dist", "cli.js"))).toBe(root);
    const pnpmFile = join(
      root,
      "node_modules",
      ".pnpm",
      "@quiver+host@0.1.0",
      "node_modules",
      "@quiver",
      "host",
      "x.js",
    );
    mkdirSync(join(pnpmFile, ".."), { recursive: true });
    writeFileSync(pnpmFile, "");
    expect(hostInstallRoot(pnpmFile)).toBe(root);
    expect(hostInstallRoot(join(HOST_DIR, "src", "cli.ts"))).toBeUndefined();
  });

  it("serves the plugins installed beside the host whatever the working directory, and --plugin finds them there", async () => {
    const root = npxFolder();
    const elsewhere = tmp();
    const scanned = await discoverPlugins({ cwd: elsewhere, hostRoot: root });
    expect(scanned.plugins.map((x) => x.plugin.id)).toEqual(["echo"]);
    expect(scanned.problems).toEqual([]);
    const named = await discoverPlugins({
      cwd: elsewhere,
      dependencies: false,
      hostRoot: root,
      load: ["quiver-plugin-echo"],
    });
    expect(named.plugins.map((x) => x.plugin.id)).toEqual(["echo"]);
    // Without the host's folder (the old behaviour) neither finds it, and the message says where it looked.
    expect((await discoverPlugins({ cwd: elsewhere })).plugins).toEqual([]);
    const lost = await discoverPlugins({ cwd: elsewhere, dependencies: false, load: ["quiver-plugin-echo"] });
    expect(lost.problems[0]!.message).toContain(`is not installed in ${elsewhere}`);
  });

  it("refuses a plugin that imports another copy of @quiver/core, saying what to install", async () => {
    const proj = tmp();
    writeFileSync(
      join(proj, "package.json"),
      JSON.stringify({ dependencies: { "quiver-plugin-echo": "1.2.0" } }),
    );
    cpSync(join(FIXTURES, "echo"), join(proj, "node_modules", "quiver-plugin-echo"), { recursive: true });
    mkdirSync(join(proj, "node_modules", "@quiver", "core"), { recursive: true });
    writeFileSync(
      join(proj, "node_modules", "@quiver", "core", "package.json"),
      JSON.stringify({ name: "@quiver/core", version: CORE_VERSION }),
    );
    const hostCore = coreCopyFrom(HOST_DIR)!;
    expect(hostCore.dir).not.toBe(join(proj, "node_modules", "@quiver", "core"));
    const r = await discoverPlugins({ cwd: proj, hostCore });
    expect(r.plugins).toEqual([]);
    expect(r.problems[0]).toMatchObject({ package: "quiver-plugin-echo", kind: "incompatible" });
    expect(r.problems[0]!.message).toContain("two cores in one process");
    expect(r.problems[0]!.fix).toContain("npx -y -p @quiver/host -p quiver-plugin-echo");
    // The same plugin beside the host's own core loads.
    const same = await discoverPlugins({
      cwd: proj,
      hostCore: coreCopyFrom(join(proj, "node_modules", "quiver-plugin-echo"))!,
    });
    expect(same.problems.filter((p) => p.message.includes("two cores"))).toEqual([]);
  });
});
