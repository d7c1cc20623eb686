#!/usr/bin/env node
// Checks what would be published, not the workspace: packs every publishable package (pnpm pack,
// so `workspace:`/`catalog:` and `publishConfig` are applied), then on each tarball
//   - the manifest: license + LICENSE file, repository (with directory), homepage, bugs, README,
//     CHANGELOG (once the package has a released version), no `workspace:`/`catalog:` left, no exact
//     pin for a third-party dependency, every `exports` target present in the tarball;
//   - source maps: every `sources` entry is in the tarball;
//   - publint (strict) and @arethetypeswrong/cli (`--profile esm-only`);
// then compiles a consumer TypeScript project (moduleResolution nodenext, skipLibCheck false) that
// imports every public entry point of every tarball, installed with npm into a temporary folder;
// checks the bundled MCP servers (generated files fresh, server.json accepted by the registry's schema
// and rules, no dependencies, install ≤ 15 MB, `mcpb validate` and a .mcpb ≤ 10 MB);
// and checks the workspace's dependency ranges (the manypkg rules Quiver relies on).
//
// Usage: node scripts/check-artifacts.mjs [--keep] [--only <dir>...] [--skip-consumer]
//   --only packages/core  checks one package folder (several --only allowed; the range check still
//                         covers the whole workspace). Exit code 1 when anything fails.
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { peerRangeProblem, workspaceDirs } from "./workspace.mjs";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const args = process.argv.slice(2);
const keep = args.includes("--keep");
const skipConsumer = args.includes("--skip-consumer");
const only = args.flatMap((a, i) => (args[i - 1] === "--only" ? [resolve(a)] : []));
const started = Date.now();
const failures = [];
/** Records a problem; `log` is the package's buffered output (packages are checked in parallel). */
const fail = (pkg, message, log = console.log) => {
  failures.push(`${pkg}: ${message}`);
  log(`  ✗ ${message}`);
};
const seconds = (t) => `${((Date.now() - t) / 1000).toFixed(1)}s`;

/** Runs a command; resolves { ok, out } with stdout+stderr, never throws. */
const sh = async (cmd, argv, opts = {}) => {
  try {
    const { stdout, stderr } = await run(cmd, argv, { maxBuffer: 64 * 1024 * 1024, ...opts });
    return { ok: true, out: `${stdout}${stderr}` };
  } catch (e) {
    return { ok: false, out: `${e.stdout ?? ""}${e.stderr ?? ""}${e.stdout || e.stderr ? "" : e.message}` };
  }
};

const readJson = (p) => JSON.parse(readFileSync(p, "utf8"));
const all = workspaceDirs().map((dir) => ({ dir, pkg: readJson(join(dir, "package.json")) }));
const publishable = all.filter((p) => !p.pkg.private && (only.length === 0 || only.includes(p.dir)));

/** Every file path (posix, relative) under a folder. */
const walk = (dir, base = dir) =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p, base) : [relative(base, p).split("\\").join("/")];
  });

/** Every string target of an exports map, with its subpath key. */
const exportTargets = (exp, key = ".") => {
  if (typeof exp === "string") return [{ key, target: exp }];
  if (exp === null || typeof exp !== "object") return [];
  return Object.entries(exp).flatMap(([k, v]) => exportTargets(v, k.startsWith(".") ? k : key));
};

const tmp = mkdtempSync(join(tmpdir(), "quiver-artifacts-"));
const packs = join(tmp, "packs");
mkdirSync(packs);
const tarballs = [];

/** Packs and checks one package; returns its output lines (printed in order once all are done). */
const checkPackage = async ({ dir, pkg }) => {
  const lines = [];
  const log = (l) => lines.push(l);
  const t = Date.now();
  const name = pkg.name;
  log(`\n== ${name} (${relative(root, dir)})`);
  if (!existsSync(join(dir, "dist"))) {
    fail(name, "no dist/: build first (pnpm build)", log);
    return lines;
  }
  const packed = await sh("pnpm", ["pack", "--pack-destination", packs], { cwd: dir });
  const tgz = packed.out
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.endsWith(".tgz"));
  if (!packed.ok || !tgz) {
    fail(name, `pnpm pack failed:\n${packed.out}`, log);
    return lines;
  }
  const tarball = tgz.startsWith("/") ? tgz : join(packs, tgz.split("/").pop());
  tarballs.push({ name, tarball, dir });
  const unpacked = join(tmp, "unpacked", name.replace("/", "+"));
  mkdirSync(unpacked, { recursive: true });
  await sh("tar", ["xzf", tarball, "-C", unpacked]);
  const pdir = join(unpacked, "package");
  const files = new Set(walk(pdir));
  const man = readJson(join(pdir, "package.json"));

  // 1. manifest
  if (man.license !== "MIT") fail(name, `license is ${JSON.stringify(man.license)}, expected "MIT"`, log);
  if (!files.has("LICENSE")) fail(name, "the tarball has no LICENSE file", log);
  if (!files.has("README.md")) fail(name, "the tarball has no README.md", log);
  if (man.version !== "0.0.0" && !files.has("CHANGELOG.md"))
    fail(
      name,
      `version ${man.version} is released but the tarball has no CHANGELOG.md (run changeset version)`,
    );
  if (
    !man.repository?.url ||
    man.repository?.type !== "git" ||
    man.repository?.directory !== relative(root, dir)
  )
    fail(name, `repository must be { type: "git", url, directory: "${relative(root, dir)}" }`, log);
  if (!man.homepage) fail(name, "no homepage", log);
  if (!man.bugs?.url && typeof man.bugs !== "string") fail(name, "no bugs", log);
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const [dep, range] of Object.entries(man[field] ?? {})) {
      if (/^(workspace|catalog):/.test(range))
        fail(name, `${field}.${dep} is still "${range}" in the tarball`, log);
      else if (/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range) && !dep.startsWith("@quiver/"))
        fail(name, `${field}.${dep} is pinned to "${range}": publish a range`, log);
    }
  }
  for (const { key, target } of exportTargets(man.exports)) {
    if (target.includes("*")) continue;
    const rel = posix.normalize(target);
    if (!files.has(rel)) fail(name, `exports["${key}"] points at ${target}, which the tarball lacks`, log);
  }
  for (const [cmd, target] of Object.entries(
    typeof man.bin === "string" ? { [name]: man.bin } : (man.bin ?? {}),
  ))
    if (!files.has(posix.normalize(target)))
      fail(name, `bin.${cmd} points at ${target}, which the tarball lacks`, log);

  // 1b. the host's web console (built by Vite into dist/console): the page and every file it loads
  if (name === "@quiver/host") {
    const page = "dist/console/index.html";
    if (!files.has(page))
      fail(name, `the tarball lacks ${page}: the console was not built (pnpm build)`, log);
    else {
      const html = readFileSync(join(pdir, page), "utf8");
      const loaded = [...html.matchAll(/(?:src|href)="\/console\/([^"]+)"/g)].map(
        (m) => `dist/console/${m[1]}`,
      );
      if (!loaded.some((f) => f.endsWith(".js"))) fail(name, `${page} loads no script`, log);
      for (const f of loaded)
        if (!files.has(f)) fail(name, `${page} loads ${f}, which the tarball lacks`, log);
    }
  }

  // 2. source maps
  let maps = 0;
  for (const f of files) {
    if (!f.endsWith(".map")) continue;
    maps++;
    const map = readJson(join(pdir, f));
    for (const s of map.sources ?? []) {
      const rel = posix.normalize(posix.join(posix.dirname(f), map.sourceRoot ?? "", s));
      if (!files.has(rel) && !map.sourcesContent) {
        fail(name, `${f} names the source ${s}, which the tarball lacks`, log);
        break;
      }
    }
  }

  // 3. publint and attw on the tarball's contents
  const lint = await sh(bin("publint"), ["run", pdir, "--pack", "false", "--strict"]);
  if (!lint.ok) fail(name, `publint:\n${lint.out.trim()}`, log);
  const attw = await sh(bin("attw"), [
    tarball,
    "--profile",
    "esm-only",
    "--format",
    "ascii",
    "--no-emoji",
    "--no-color",
  ]);
  if (!attw.ok) fail(name, `attw --profile esm-only:\n${attw.out.trim()}`, log);
  log(
    `  ${files.size} files, ${maps} source maps, publint ${lint.ok ? "ok" : "FAILED"}, attw ${attw.ok ? "ok" : "FAILED"} (${seconds(t)})`,
  );
  return lines;
};

// Four at a time: packing, publint and attw mostly wait on processes.
const queue = [...publishable];
const outputs = new Map();
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      outputs.set(next.dir, await checkPackage(next));
  }),
);
for (const { dir } of publishable) console.log(outputs.get(dir).join("\n"));
tarballs.sort(
  (a, b) => publishable.findIndex((p) => p.dir === a.dir) - publishable.findIndex((p) => p.dir === b.dir),
);

// 4. a consumer project compiled against the packed types
// (A bundled server is a command, not a module: a set of servers alone has nothing to compile.)
if (!skipConsumer && tarballs.some(({ dir }) => !relative(root, dir).startsWith("packages/servers/"))) {
  const t = Date.now();
  console.log("\n== consumer project (npm install of the tarballs, tsc nodenext, skipLibCheck false)");
  const consumer = join(tmp, "consumer");
  mkdirSync(consumer);
  // Optional peers of @quiver/adapters' sub-entries, so their types resolve.
  const optionalPeers = new Set();
  const imports = [];
  for (const { tarball } of tarballs) {
    const man = JSON.parse((await sh("tar", ["xzfO", tarball, "package/package.json"])).out);
    // A bundled MCP server (packages/servers/*) is a command only: nothing to import.
    if (man.exports === undefined && man.bin !== undefined) continue;
    for (const [dep, meta] of Object.entries(man.peerDependenciesMeta ?? {}))
      if (meta.optional) optionalPeers.add(`${dep}@${man.peerDependencies[dep]}`);
    for (const key of Object.keys(man.exports ?? { ".": "" })) {
      if (key.includes("*") || key === "./package.json" || man.exports[key] === null) continue;
      imports.push(key === "." ? man.name : `${man.name}/${key.slice(2)}`);
    }
  }
  const typescript = readJson(join(root, "node_modules", "typescript", "package.json")).version;
  const typesNode = readJson(join(root, "package.json")).devDependencies["@types/node"];
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  const install = await sh(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--loglevel=error",
      ...tarballs.map((x) => x.tarball),
      ...optionalPeers,
      `typescript@${typescript}`,
      `@types/node@${typesNode === "catalog:" ? "^24" : typesNode}`,
    ],
    { cwd: consumer },
  );
  if (!install.ok) fail("consumer", `npm install of the tarballs failed:\n${install.out}`);
  else {
    const src = imports.map((spec, i) => `import * as m${i} from "${spec}";`).join("\n");
    writeFileSync(
      join(consumer, "index.ts"),
      `${src}\nexport const entries: ReadonlyArray<object> = [${imports.map((_, i) => `m${i}`).join(", ")}];\n`,
    );
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          lib: ["ES2023", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ["node"],
        },
        files: ["index.ts"],
      }),
    );
    const tsc = await sh(join(consumer, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], {
      cwd: consumer,
    });
    // Errors inside third-party declarations (effect's need for DOM's crypto types, say) are theirs:
    // reported, not failed on. Errors in index.ts or in any @quiver/* declaration fail.
    const errors = tsc.out
      .trim()
      .split("\n")
      .filter((l) => /error TS\d+/.test(l));
    const ours = errors.filter((l) => l.startsWith("index.ts") || l.includes("node_modules/@quiver/"));
    if (!tsc.ok && (ours.length > 0 || errors.length === 0))
      fail(
        "consumer",
        `tsc against the packed types failed:\n${(ours.length ? ours : [tsc.out.trim()]).slice(0, 40).join("\n")}`,
      );
    else if (errors.length > 0)
      console.log(
        `  note: ${errors.length} error(s) in third-party declarations:\n    ${errors.slice(0, 5).join("\n    ")}`,
      );
    // and the entry points load in Node (ESM, from the tarball, with the installed peers)
    const load = await sh(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        imports
          .filter((s) => !s.includes("/adapters/"))
          .map((s) => `await import("${s}");`)
          .join(""),
      ],
      { cwd: consumer },
    );
    if (!load.ok) fail("consumer", `importing the entry points in Node failed:\n${load.out.trim()}`);
    console.log(
      `  ${imports.length} entry points: tsc ${failures.some((f) => f.startsWith("consumer")) ? "FAILED" : "ok"}, node import ${load.ok ? "ok" : "FAILED"} (${seconds(t)})`,
    );
  }
}

// 5. the bundled MCP servers (packages/servers/*, issue 40): their generated files are fresh and the
// registry would take their server.json; each tarball has no dependencies and installs within the
// budget; each manifest.json passes `mcpb validate` and packs into a .mcpb within its budget; the
// command in the tarball runs.
const SERVER_INSTALL_BUDGET = 15 * 1024 * 1024;
const MCPB_BUDGET = 10 * 1024 * 1024;
const servers = tarballs.filter(({ dir }) => relative(root, dir).startsWith("packages/servers/"));
if (only.length === 0 || servers.length > 0) {
  const t = Date.now();
  console.log("\n== bundled MCP servers (generated files, no dependencies, size budgets, mcpb)");
  const { generateServers } = await import("./servers/generate-servers.mjs");
  const { packBundle } = await import("./servers/pack-bundles.mjs");
  const { problems } = await generateServers({ check: true }).catch((e) => ({ problems: [e.message] }));
  for (const p of problems) fail("servers", `${p} (node scripts/servers/generate-servers.mjs writes them)`);
  /** Bytes of every file under a folder (what npm installs for a package with no dependencies). */
  const bytes = (dir) => walk(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
  const mb = (n) => `${(n / 1024 / 1024).toFixed(2)} MB`;
  for (const { name, dir } of servers) {
    const pdir = join(tmp, "unpacked", name.replace("/", "+"), "package");
    const man = readJson(join(pdir, "package.json"));
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"])
      if (Object.keys(man[field] ?? {}).length > 0)
        fail(name, `${field} is not empty: a bundled server installs nothing beside itself`);
    const installed = bytes(pdir);
    if (installed > SERVER_INSTALL_BUDGET) fail(name, `installs ${mb(installed)}, over the 15 MB budget`);
    const validated = await sh(bin("mcpb"), ["validate", join(dir, "manifest.json")]);
    if (!validated.ok) fail(name, `mcpb validate manifest.json:\n${validated.out.trim()}`);
    const bundle = await packBundle(dir, join(tmp, "mcpb")).catch((e) => ({ error: e }));
    if (bundle.error) fail(name, `mcpb pack failed: ${bundle.error.stderr ?? bundle.error.message}`);
    else if (bundle.bytes > MCPB_BUDGET)
      fail(name, `its .mcpb is ${mb(bundle.bytes)}, over the 10 MB budget`);
    const entry = Object.values(man.bin ?? {})[0];
    const version = entry
      ? await sh(process.execPath, [join(pdir, entry), "--version"])
      : { ok: false, out: "no bin" };
    if (!version.ok || version.out.trim() !== man.version)
      fail(
        name,
        `${entry} --version from the tarball answered ${JSON.stringify(version.out.trim())}, not ${man.version}`,
      );
    console.log(
      `  ${name}: installs ${mb(installed)} (no dependencies), .mcpb ${bundle.bytes ? mb(bundle.bytes) : "FAILED"}, mcpb validate ${validated.ok ? "ok" : "FAILED"}, --version ${version.ok ? "ok" : "FAILED"}`,
    );
  }
  console.log(
    `  ${problems.length === 0 ? "generated files fresh, server.json accepted" : `${problems.length} generated-file problem(s)`} (${seconds(t)})`,
  );
}

// 6. dependency ranges across the workspace (manypkg's rules, with pnpm's catalog: and workspace:)
// An internal peer range must hold the current version and stop before the next major: an unbounded
// ">=0.1.0" lets `npm update` put a breaking core under plugins built for the old one.
/** Examples that users copy out of the repository (no workspace:, no catalog:). */
const STANDALONE = ["examples/third-party-plugin"];
{
  console.log("\n== dependency ranges (workspace)");
  const versions = new Map(all.map((p) => [p.pkg.name, p.pkg.version]));
  // The catalog's ranges, so a package that writes the range itself (the copy-out example) is
  // compared with the same range its neighbours get through `catalog:`.
  const catalog = new Map(
    [
      ...(readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")
        .split(/^catalog:\n/m)[1]
        ?.split(/^\S/m)[0]
        .matchAll(/^\s+"?([^":\s]+)"?:\s*(\S+)$/gm) ?? []),
    ].map((m) => [m[1], m[2]]),
  );
  const external = new Map();
  for (const { pkg } of all) {
    // The published manifest's exports replace the workspace's: a subpath added to one only is
    // missing from the tarball (a consumer's import fails with ERR_PACKAGE_PATH_NOT_EXPORTED).
    const published = pkg.publishConfig?.exports;
    if (!pkg.private && published && pkg.exports) {
      for (const subpath of Object.keys(pkg.exports))
        if (!(subpath in published))
          fail(
            pkg.name,
            `exports["${subpath}"] is missing from publishConfig.exports: the tarball would not export it`,
          );
    }
  }
  for (const { dir, pkg } of all) {
    // Copied out of the repository to start a plugin: it names published ranges, not workspace:,
    // and the workspace links it through pnpm-workspace.yaml's overrides (CONTRIBUTING.md).
    const standalone = pkg.private && STANDALONE.includes(relative(root, dir));
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
      for (const [dep, spec] of Object.entries(pkg[field] ?? {})) {
        const range = spec === "catalog:" ? (catalog.get(dep) ?? spec) : spec;
        if (versions.has(dep) && standalone) {
          if (/^(workspace|catalog):/.test(spec))
            fail(pkg.name, `${field}.${dep} is "${spec}": a copy-out example names published ranges`);
          continue;
        }
        if (versions.has(dep)) {
          const ok =
            field === "peerDependencies" ? !range.startsWith("workspace:") : range.startsWith("workspace:");
          if (!ok)
            fail(
              pkg.name,
              `${field}.${dep} is "${range}": internal ${field === "peerDependencies" ? "peer ranges are plain ranges" : "dependencies use workspace:"}`,
            );
          else if (field === "peerDependencies") {
            const problem = peerRangeProblem(range, versions.get(dep));
            if (problem) fail(pkg.name, `peerDependencies.${dep} is "${range}": ${problem} (VERSIONING.md)`);
          }
          continue;
        }
        if (field === "peerDependencies") continue;
        if (!external.has(dep)) external.set(dep, new Map());
        const seen = external.get(dep);
        seen.set(range, [...(seen.get(range) ?? []), pkg.name]);
      }
    }
  }
  for (const [dep, seen] of external) {
    if (seen.size > 1) {
      const list = [...seen].map(([r, who]) => `"${r}" (${who.join(", ")})`).join(" vs ");
      fail("workspace", `${dep} has different ranges: ${list}`);
    }
  }
  console.log(`  ${external.size} third-party dependencies checked`);
}

if (!keep) rmSync(tmp, { recursive: true, force: true });
else console.log(`\nkept ${tmp}`);
console.log(
  `\ncheck-artifacts: ${publishable.length} packages, ${failures.length} problem(s), ${seconds(started)}`,
);
if (failures.length > 0) {
  console.log(failures.map((f) => `  - ${f.split("\n")[0]}`).join("\n"));
  process.exit(1);
}
