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
// context7 depends on @quiver/mcp (its MCP transport), which is not on the public registry either.
const PACKED = ["packages/core", "packages/mcp", "packages/plugins/fda", "packages/plugins/context7"];
const built = PACKED.every((p) => existsSync(join(REPO_DIR, p, "dist", "index.js")));
if (!built)
  console.log(
    "skipped: build @quiver/core, @quiver/mcp, @quiver/plugin-fda and @quiver/plugin-context7 to run the discovery proof",
  );

let root: string;
let project: string;
const tarballs: string[] = [];

const toolNames = async () => {
  const r = await runQuiver(["list", "--json"], { cwd: project });
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
  },
);
