#!/usr/bin/env node
// `pnpm version-packages`: `changeset version` with two corrections changesets 3 does not make.
//
// Why a step of our own: @changesets/assemble-release-plan 7 releases a package whose internal range
// no longer holds a new major of its dependency as a *patch* (determine-dependents: "dependencies",
// "peerDependencies" -> patch), whatever the range type. For Quiver that is wrong: when @quiver/core
// goes 0.x -> 1.0.0, changesets rewrites each plugin's peer range `>=0.0.0 <1.0.0` to `>=1.0.0 <2.0.0`
// and the host's `workspace:^` packs as `^1.0.0`, but a *patch* of the host or of a plugin is what
// `npm update` installs into a project built on core 0.x: the host would bring core 1 under the
// project's 0.x plugins. No configuration makes changesets release such dependents as majors
// (`fixed`/`linked` would tie unrelated versions together), so before `changeset version` this step
// reads the release plan (`changeset status --output`) and adds a changeset that makes every public
// dependent whose range the new major leaves a major too, repeating until nothing changes (the
// host follows @quiver/redis, which follows core). After `changeset version` it bounds the peer
// ranges changesets leaves open (below) and checks each holds the current version.
//
// The bundled MCP servers (packages/servers/*) carry their plugin and core inside their build, named
// as devDependencies, which changesets does not follow: a changeset releases each server whose
// bundle changes (scripts/servers/servers-follow.mjs). After versioning, every server's generated
// files (server.json, manifest.json, package.json ...) are written again with the new versions
// (scripts/servers/generate-servers.mjs; it reads the plugins' settings from their builds, the
// digest key from @quiver/mcp's and the tool digests from the servers' builds, so all are built first).
//
// Usage: node scripts/version-packages.mjs   (in the repository root; pnpm version-packages)
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SERVED_PLUGINS } from "./servers/served-plugins.mjs";
import { serversToFollow } from "./servers/servers-follow.mjs";
import { effectiveRange, peerRangeProblem, semver, workspacePackages } from "./workspace.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const changeset = (args) =>
  execFileSync(join(root, "node_modules", ".bin", "changeset"), args, { cwd: root, stdio: "inherit" });

/** The release plan changesets would apply now. */
const releasePlan = () => {
  const out = join(tmpdir(), `quiver-release-plan-${process.pid}.json`);
  changeset(["status", "--output", out]);
  const plan = JSON.parse(readFileSync(out, "utf8"));
  rmSync(out, { force: true });
  return plan;
};

const FIELDS = ["dependencies", "peerDependencies", "optionalDependencies"];
const packages = workspacePackages();
const written = [];
const pending = readdirSync(join(root, ".changeset")).some((f) => f.endsWith(".md") && f !== "README.md");
for (let round = 0; pending && round < 10; round++) {
  const plan = releasePlan();
  const type = new Map(plan.releases.map((r) => [r.name, r.type]));
  const majors = plan.releases.filter((r) => r.type === "major");
  const needs = new Map();
  for (const { pkg } of packages) {
    if (pkg.private || type.get(pkg.name) === "major") continue;
    for (const dep of majors) {
      const spec = FIELDS.map((f) => pkg[f]?.[dep.name]).find(Boolean);
      if (spec && !semver.satisfies(dep.newVersion, effectiveRange(spec, dep.oldVersion)))
        needs.set(pkg.name, `${dep.name} ${dep.newVersion}`);
    }
  }
  if (needs.size === 0) break;
  const file = join(root, ".changeset", `major-follows-${Date.now().toString(36)}-${round}.md`);
  const lines = [...needs].map(([name]) => `"${name}": major`);
  const why = [...new Set(needs.values())].join(", ");
  writeFileSync(
    file,
    `---\n${lines.join("\n")}\n---\n\nBuilt for ${why}: a major of a package it depends on is a major of this one, so \`npm update\` on the previous major keeps the previous versions together.\n`,
  );
  written.push(...needs.keys());
}
if (written.length > 0)
  console.log(`version-packages: released as majors with their dependency: ${written.join(", ")}`);
if (pending) {
  const follow = serversToFollow(releasePlan(), packages);
  if (follow.size > 0) {
    writeFileSync(
      join(root, ".changeset", `servers-follow-${Date.now().toString(36)}.md`),
      `---\n${[...follow].map(([name, type]) => `"${name}": ${type}`).join("\n")}\n---\n\nBuilt with this release of the plugin it serves and of @quiver/core and @quiver/mcp, bundled in.\n`,
    );
    console.log(
      `version-packages: bundled servers released with what they bundle: ${[...follow.keys()].join(", ")}`,
    );
  }
}

// `changeset version` exits 1 when there is nothing to version: here that is not a failure (the
// release after a release publishes what package.json says).
if (pending) changeset(["version"]);
else console.log("version-packages: no changesets, the versions stay as they are");

// changesets rewrites an out-of-range `>=A <B` as `>=<new> <next major>`, but semver reads
// `>=0.0.0` as "any", so the first-party `>=0.0.0 <1.0.0` comes out as an unbounded `>=1.0.0`
// (apply-release-plan's getNewDependencyRange keeps the operator of a one-comparator range). Give such
// a range back its upper bound, then apply the rule check:artifacts applies.
const after = workspacePackages();
const versions = new Map(after.map(({ pkg }) => [pkg.name, pkg.version]));
const problems = [];
for (const { dir, pkg } of after) {
  if (pkg.private) continue;
  let changed = false;
  for (const [dep, range] of Object.entries(pkg.peerDependencies ?? {})) {
    if (!versions.has(dep)) continue;
    const floor = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
    if (floor) {
      pkg.peerDependencies[dep] = `${range.trim()} <${Number(floor[1]) + 1}.0.0`;
      changed = true;
    }
    const problem = peerRangeProblem(pkg.peerDependencies[dep], versions.get(dep));
    if (problem)
      problems.push(`${pkg.name}: peerDependencies.${dep} "${pkg.peerDependencies[dep]}" ${problem}`);
  }
  if (changed) writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}
if (problems.length > 0) {
  console.error(
    `version-packages: unsafe internal peer ranges after changeset version:\n  ${problems.join("\n  ")}`,
  );
  process.exit(1);
}

// The servers' generated files, with this release's versions: the plugins built, the files written
// (package.json with the new version), the servers built from them, then written again, since each
// server.json carries the tool digests its built server lists (scripts/servers/tool-digests.mjs).
const build = (filters) =>
  execFileSync("pnpm", ["--silent", "turbo", "run", "build", ...filters.flatMap((f) => ["--filter", f])], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
  });
// @quiver/mcp too: the generator reads the tools/list digest key from its build (tool-digests.mjs).
build([...SERVED_PLUGINS.map((id) => `@quiver/plugin-${id}`), "@quiver/mcp"]);
const { generateServers } = await import("./servers/generate-servers.mjs");
const first = await generateServers();
build(["./packages/servers/*"]);
const generated = await generateServers();
const serverFiles = new Set([...first.written, ...generated.written]).size;
if (serverFiles > 0) console.log(`version-packages: wrote ${serverFiles} generated server file(s)`);
if (generated.problems.length > 0) {
  console.error(`version-packages: the servers' files:\n  ${generated.problems.join("\n  ")}`);
  process.exit(1);
}
