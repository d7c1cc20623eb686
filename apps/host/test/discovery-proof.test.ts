import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_DIR, runQuiver } from "./helpers.js";

const exec = promisify(execFile);
// The host is installed from its tarball too, beside the plugins, as a user installs it: a host run
// from this checkout would import another @quiver/core than the installed plugins, which it refuses
// (two cores in one process; the last test shows it). Its internal dependencies are packed with it;
// the host depends on @quiver/mcp, @quiver/record and @quiver/tasks. None of them is on the public registry.
const PACKED = [
  "packages/core",
  "packages/mcp",
  "packages/record",
  "packages/search",
  "packages/tasks",
  "packages/adapters",
  "apps/host",
  "packages/plugins/fda",
  "packages/plugins/context7",
];
const built =
  PACKED.every((p) => existsSync(join(REPO_DIR, p, "dist", "index.js"))) &&
  existsSync(join(REPO_DIR, "apps", "host", "dist", "cli.js"));
if (!built) console.log(`skipped: build ${PACKED.join(", ")} to run the discovery proof`);

let root: string;
let project: string;
const tarballs: string[] = [];

/** `quiver list --json` of the host installed in the project (as `npx quiver list --json` runs it). */
const installedQuiver = (args: ReadonlyArray<string>) =>
  exec(process.execPath, [join(project, "node_modules", "@quiver", "host", "dist", "cli.js"), ...args], {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? 1,
      stdout: e.stdout ?? "",
      stderr: e.stderr ?? "",
    }),
  );

const toolNames = async () => {
  const r = await installedQuiver(["list", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
};

describe.runIf(built)(
  "discovery proof: packed plugins installed from tarballs appear with no code change",
  () => {
    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), "quiver-proof-"));
      const packs = join(root, "tarballs");
      project = join(root, "project");
      mkdirSync(packs);
      mkdirSync(project);
      // pnpm pack rewrites workspace:^ and catalog: ranges into the real ones, as a publish would.
      await Promise.all(
        PACKED.map((p) => exec("pnpm", ["pack", "--pack-destination", packs], { cwd: join(REPO_DIR, p) })),
      );
      tarballs.push(...readdirSync(packs).map((f) => join(packs, f)));
      writeFileSync(
        join(project, "package.json"),
        JSON.stringify({ name: "proof", private: true, version: "1.0.0" }),
      );
      // @quiver/* come from the tarballs; effect, zod and undici from the npm registry (or its cache).
      await exec(
        "npm",
        ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...tarballs],
        {
          cwd: project,
          timeout: 110_000,
        },
      );
    }, 120_000);
    afterAll(() => {
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it("packs real packages with the published ranges", () => {
      // The versions are whatever package.json says (changesets writes them; nothing else may).
      const expected = PACKED.map((p) => {
        const { name, version } = JSON.parse(readFileSync(join(REPO_DIR, p, "package.json"), "utf8"));
        return `${name.slice(1).replace("/", "-")}-${version}.tgz`;
      });
      expect(tarballs.map((t) => t.split("/").pop()).sort()).toEqual(expected.sort());
    });

    it("serves the installed plugins' tools, and drops a plugin's tools when it is uninstalled", async () => {
      const before = await toolNames();
      expect(before).toEqual(
        expect.arrayContaining([
          "fda_search_drugs",
          "fda_count_drugs",
          "context7_search_documentation",
          "quiver_find_tools",
        ]),
      );
      await exec(
        "npm",
        [
          "uninstall",
          "--no-audit",
          "--no-fund",
          "--prefer-offline",
          "--loglevel=error",
          "@quiver/plugin-context7",
        ],
        {
          cwd: project,
          timeout: 60_000,
        },
      );
      const after = await toolNames();
      expect(after).toEqual(expect.arrayContaining(["fda_search_drugs", "fda_count_drugs"]));
      expect(after.filter((n) => n.startsWith("context7_"))).toEqual([]);
    }, 90_000);

    it("a host from another install refuses the project's plugins (two cores), saying what to install", async () => {
      const r = await runQuiver(["list", "--json"], { cwd: project });
      expect(r.stderr).toContain("@quiver/plugin-fda imports its own @quiver/core");
      expect(r.stderr).toContain("two cores in one process");
      expect(r.stderr).toContain("npm install @quiver/host @quiver/plugin-fda");
      const listed = (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
      expect(listed.filter((n) => n.startsWith("fda_"))).toEqual([]);
    });
  },
);
