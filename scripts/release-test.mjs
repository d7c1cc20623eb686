#!/usr/bin/env node
// The release flow, end to end, against a real local npm registry (Verdaccio from npm):
//   1. start Verdaccio on 127.0.0.1 (free port, temporary storage; @quiver/* and the copied-out
//      example's @quiver-release-test/* local only, other packages proxied to the npm registry) and
//      register a user for the publish token;
//   2. copy the repository (git ls-files: tracked and new files, never the checkout itself) and
//      install it; run `pnpm version-packages` and the publish step (build, then `changeset publish`:
//      `pnpm release` minus the test suite and check:artifacts, which CI runs on their own). The
//      workspace may be unreleased (0.0.0 with pending changesets) or released (no changesets): the
//      first publish puts whatever versions it has on the registry;
//   3. npm, in a new folder: install @quiver/host and @quiver/plugin-fda from the registry (the
//      install size is printed; @quiver/redis must not come with the host), `quiver list --json`
//      shows exactly their tools (read from the installed plugin packages); install two more, they
//      appear; remove one, it goes; bump a plugin with a changeset, publish, upgrade it, and see the
//      new version in `quiver list --json` and in `/health` of `quiver serve`;
//   4. the same with pnpm;
//   5. the third-party example, copied out of the repository as a user would: install from the
//      registry, build, test, publish under a test name; a user installs it beside the host;
//   6. `npx @quiver/host` in an empty folder, and an MCP client launching it through npx;
//   7. a breaking @quiver/core (a major changeset): every dependent is released as a major, the
//      peer ranges stay bounded, `npm update` in the npm project keeps the 0.x set together, and
//      installing only the new host does not load the old plugins against the new core silently;
//   8. the installed size of @quiver/host with each first-party plugin (npm, an empty project each),
//      beside the official @upstash/context7-mcp and @perplexity-ai/mcp-server installed the same way;
//   9. each bundled server's one-liner (`npx -y @quiver/<plugin>-mcp`) launched by the MCP SDK's
//      stdio client from an empty npx cache, its tools listed; each .mcpb unpacked and started as its
//      mcp_config says, one real tool called against an emulator on 127.0.0.1 and its success envelope
//      checked (scripts/servers/bundle-calls.mjs); the cold start and installed size printed
//      beside the official @upstash/context7-mcp launched the same way (interleaved runs, medians).
// Prints each step's time and the total. Always stops Verdaccio and the servers it started.
//
// Usage: node scripts/release-test.mjs [--short] [--keep] [--as-released] [--servers-only]
//   --short        CI's tier (.ci/run): every step but the figures and the second package manager,
//                  i.e. without step 4 (pnpm), step 8 (installed sizes) and step 9's cold-start
//                  comparison with @upstash/context7-mcp; the whole test runs at release time
//                  (./dev test:release, the Release workflow) and prints those figures
//   --keep         leaves the temporary folder for a look
//   --servers-only after the first publish, only step 9 (the bundled servers)
//   --as-released  versions the copy first (as after the repository's own first release), so the
//                  first publish has no pending changesets
import { execFile, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { peerRangeProblem, semver } from "./workspace.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");
const asReleased = process.argv.includes("--as-released");
const serversOnly = process.argv.includes("--servers-only");
const short = process.argv.includes("--short");
const VERDACCIO = "6.10.4";
const tmp = mkdtempSync(join(tmpdir(), "quiver-release-"));
const children = new Set();
const started = Date.now();
const timings = [];
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;

/** Thrown by a failed check or command: printed with its output, then everything is stopped. */
class StepError extends Error {}
const check = (ok, message) => {
  if (!ok) throw new StepError(message);
};

/** Runs a command to completion; rejects with the command line and its output when it fails. */
const sh = (cmd, args, { cwd = tmp, env = {}, timeout = 600_000, allowFail = false } = {}) =>
  new Promise((done, reject) => {
    const child = execFile(
      cmd,
      args,
      { cwd, env: { ...process.env, ...env }, timeout, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        if (error && !allowFail)
          reject(
            new StepError(
              `\`${cmd} ${args.join(" ")}\` (in ${cwd}) failed with ${error.killed ? "a timeout" : `exit ${code}`}:\n${stdout}${stderr}`,
            ),
          );
        else done({ code, stdout, stderr });
      },
    );
    children.add(child);
    child.on("exit", () => children.delete(child));
  });

/** Starts a long-running child whose output is kept for the error message; stopped at the end. */
const start = (cmd, args, { cwd, env = {} }) => {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  child.output = "";
  child.stdout.on("data", (d) => {
    child.output += d;
  });
  child.stderr.on("data", (d) => {
    child.output += d;
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
};
const stop = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
};

const freePort = () =>
  new Promise((done, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => done(port));
    });
  });

/** Polls a URL until it answers 2xx (or the child exits, or the time is up). */
const waitFor = async (url, child, ms = 60_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null)
      throw new StepError(`${url}: the process exited (${child.exitCode}):\n${child.output}`);
    try {
      const r = await fetch(url);
      if (r.ok) return r;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new StepError(`${url} did not answer within ${ms / 1000}s:\n${child.output}`);
};

const step = async (name, fn) => {
  const t = Date.now();
  process.stdout.write(`\n== ${name}\n`);
  const result = await fn();
  timings.push([name, Date.now() - t]);
  console.log(`   ok (${secs(Date.now() - t)})`);
  return result;
};

// ---------------------------------------------------------------------------------------------
let registry;
let registryProcess;
let npmrc;
let clientEnv;
const repo = join(tmp, "repo");

const startVerdaccio = async () => {
  // Installed once into .tools/verdaccio with npm; node-fetch is overridden because a dependency
  // asks for its `cjs` dist-tag, which the npm registry no longer has.
  const home = join(root, ".tools", "verdaccio");
  const binPath = join(home, "node_modules", "verdaccio", "bin", "verdaccio");
  if (!existsSync(binPath)) {
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, "package.json"),
      JSON.stringify({
        name: "quiver-verdaccio",
        private: true,
        dependencies: { verdaccio: VERDACCIO },
        overrides: { "node-fetch": "^2.7.0" },
      }),
    );
    await sh("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: home });
  }
  const port = await freePort();
  registry = `http://127.0.0.1:${port}/`;
  const dir = join(tmp, "verdaccio");
  mkdirSync(dir);
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "    max_users: 10",
      "uplinks:",
      "  npmjs:",
      "    url: https://registry.npmjs.org/",
      "    timeout: 60s",
      // A package's metadata fetched once stays for the run: the cold-start comparison then times
      // npx's install from this registry, not Verdaccio's refresh of each packument from npmjs.
      "    maxage: 60m",
      "packages:",
      "  '@quiver/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '@quiver-release-test/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    proxy: npmjs",
      "web:",
      "  enable: false",
      "max_body_size: 200mb",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  registryProcess = start(process.execPath, [binPath, "--config", config, "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
  });
  const child = registryProcess;
  await waitFor(`${registry}-/ping`, child);
  // `npm publish` needs a token: register a user through the registry's adduser API.
  const user = `quiver-${process.pid}`;
  const res = await fetch(`${registry}-/user/org.couchdb.user:${user}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      _id: `org.couchdb.user:${user}`,
      name: user,
      password: `pw-${Date.now()}`,
      email: `${user}@example.invalid`,
      type: "user",
      roles: [],
      date: new Date().toISOString(),
    }),
  });
  const body = await res.json().catch(() => ({}));
  check(res.ok && body.token, `adduser failed: ${res.status} ${JSON.stringify(body)}`);
  npmrc = join(tmp, "npmrc");
  writeFileSync(npmrc, `registry=${registry}\n//127.0.0.1:${port}/:_authToken=${body.token}\n`);
  // Every client (npm, pnpm, npx, changesets' pnpm publish) reads this registry and token.
  clientEnv = {
    npm_config_userconfig: npmrc,
    npm_config_registry: registry,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
  console.log(`   Verdaccio ${VERDACCIO} at ${registry} (storage ${dir})`);
};

const copyRepo = async () => {
  // Tracked files plus new, not-ignored ones: the working tree as a commit would have it.
  const { stdout } = await sh("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
  });
  const files = stdout.split("\0").filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(root, f))) continue; // deleted in the working tree
    mkdirSync(dirname(join(repo, f)), { recursive: true });
    cpSync(join(root, f), join(repo, f));
  }
  const git = {
    GIT_AUTHOR_NAME: "release-test",
    GIT_AUTHOR_EMAIL: "r@t.invalid",
    GIT_COMMITTER_NAME: "release-test",
    GIT_COMMITTER_EMAIL: "r@t.invalid",
  };
  await sh("git", ["init", "-q", "-b", "main"], { cwd: repo });
  await sh("git", ["add", "-A"], { cwd: repo });
  await sh("git", ["commit", "-qm", "release-test base"], { cwd: repo, env: git });
  // Dependencies come from the pnpm store (the lockfile is frozen); not from the test registry.
  await sh("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", "--reporter=silent"], { cwd: repo });
  console.log(`   ${files.length} files copied to ${repo}`);
  if (asReleased) {
    // The repository right after its own release was cut: versions written, no changesets left.
    await sh("pnpm", ["version-packages"], { cwd: repo });
    await sh("git", ["add", "-A"], { cwd: repo });
    await sh("git", ["commit", "-qm", "release-test: the repository's own release"], { cwd: repo, env: git });
    const core = JSON.parse(readFileSync(join(repo, "packages/core/package.json"), "utf8")).version;
    console.log(`   versioned as released: @quiver/core ${core}, no pending changesets`);
  }
};

/** `pnpm version-packages`, then the publish step, in the repository copy, against the test registry. */
const versionAndPublish = async () => {
  await sh("pnpm", ["version-packages"], { cwd: repo, env: clientEnv });
  await sh("pnpm", ["build"], { cwd: repo, env: { ...clientEnv, TURBO_TELEMETRY_DISABLED: "1" } });
  const pub = await sh("pnpm", ["exec", "changeset", "publish"], { cwd: repo, env: clientEnv });
  const published = [...`${pub.stdout}${pub.stderr}`.matchAll(/(@quiver\/[\w-]+)@(\d+\.\d+\.\d+)/g)].map(
    (m) => `${m[1]}@${m[2]}`,
  );
  const versions = Object.fromEntries(
    ["apps/host", "packages/core", "packages/plugins/fda"].map((d) => {
      const p = JSON.parse(readFileSync(join(repo, d, "package.json"), "utf8"));
      return [p.name, p.version];
    }),
  );
  console.log(`   published ${new Set(published).size} package versions; now ${JSON.stringify(versions)}`);
  return versions;
};

const bumpFda = async (line) => {
  writeFileSync(
    join(repo, ".changeset", `release-test-${Date.now()}.md`),
    `---\n"@quiver/plugin-fda": patch\n---\n\n${line}\n`,
  );
  const v = await versionAndPublish();
  return v["@quiver/plugin-fda"];
};

// --- the project side ----------------------------------------------------------------------------
const pm = {
  npm: {
    add: (pkgs) => ["npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...pkgs]],
    remove: (pkgs) => ["npm", ["uninstall", "--no-audit", "--no-fund", "--loglevel=error", ...pkgs]],
    upgrade: (pkg) => ["npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@latest`]],
    quiver: (args) => ["npx", ["--no-install", "quiver", ...args]],
  },
  pnpm: {
    add: (pkgs) => ["pnpm", ["add", "--reporter=silent", ...pkgs]],
    remove: (pkgs) => ["pnpm", ["remove", "--reporter=silent", ...pkgs]],
    upgrade: (pkg) => ["pnpm", ["update", "--latest", "--reporter=silent", pkg]],
    quiver: (args) => ["pnpm", ["exec", "quiver", ...args]],
  },
};

const newProject = (name) => {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name, private: true, version: "1.0.0", type: "module" }),
  );
  return dir;
};

/** The tool names and versions the installed plugin packages define, read from the packages. */
const installedPlugins = async (dir, pkgs) => {
  const code = `
    const out = {};
    for (const name of ${JSON.stringify(pkgs)}) {
      const mod = await import(name);
      const pkg = (await import(name + "/package.json", { with: { type: "json" } })).default;
      out[name] = { id: mod.default.id, version: pkg.version, tools: mod.default.tools.map((t) => t.name).sort() };
    }
    console.log(JSON.stringify(out));`;
  const { stdout } = await sh(process.execPath, ["--input-type=module", "-e", code], { cwd: dir });
  return JSON.parse(stdout);
};

/** `quiver list --json` shows exactly the installed plugins (and the host's own), exit 0. */
const expectList = async (kind, dir, pkgs) => {
  const [cmd, args] = pm[kind].quiver(["list", "--json"]);
  const r = await sh(cmd, args, { cwd: dir, env: clientEnv, allowFail: true });
  check(r.code === 0, `quiver list --json exited ${r.code}:\n${r.stdout}${r.stderr}`);
  const list = JSON.parse(r.stdout);
  check(
    list.problems.length === 0,
    `quiver list reports problems: ${JSON.stringify(list.problems, null, 2)}`,
  );
  const expected = await installedPlugins(dir, pkgs);
  const hostOwn = new Set(list.plugins.filter((p) => p.package === "@quiver/host").map((p) => p.id));
  const listed = list.tools
    .filter((t) => !hostOwn.has(t.plugin))
    .map((t) => t.name)
    .sort();
  const want = Object.values(expected)
    .flatMap((p) => p.tools)
    .sort();
  check(
    JSON.stringify(listed) === JSON.stringify(want),
    `quiver list --json tools ${JSON.stringify(listed)}\n  but the installed plugins ${pkgs.join(", ")} define ${JSON.stringify(want)}`,
  );
  for (const [name, p] of Object.entries(expected)) {
    const shown = list.plugins.find((x) => x.id === p.id);
    check(
      shown && shown.version === p.version,
      `quiver list shows ${name} as ${JSON.stringify(shown)}, installed ${p.version}`,
    );
  }
  // What every tarball must carry (the artifact check looks at the packs; this at the published ones).
  for (const name of pkgs.filter((n) => n.startsWith("@quiver/"))) {
    const dirOf = join(dir, "node_modules", ...name.split("/"));
    for (const f of ["README.md", "CHANGELOG.md", "LICENSE"])
      check(existsSync(join(dirOf, f)), `the published ${name}@${expected[name].version} has no ${f}`);
  }
  console.log(
    `   quiver list: ${listed.length} tools from ${pkgs.map((n) => `${n}@${expected[n].version}`).join(", ")}`,
  );
  return list;
};

/** `quiver serve` on a free port answers /health with the plugin at `version`; then it is stopped. */
const expectHealth = async (kind, dir, pluginId, version) => {
  const port = await freePort();
  const [cmd, args] = pm[kind].quiver(["serve", "--port", String(port), "--host", "127.0.0.1"]);
  const child = start(cmd, args, { cwd: dir, env: clientEnv });
  try {
    const health = await (await waitFor(`http://127.0.0.1:${port}/health`, child)).json();
    const p = health.plugins.find((x) => x.id === pluginId);
    check(
      p?.version === version,
      `/health shows ${pluginId} as ${JSON.stringify(p)}, expected version ${version}`,
    );
    console.log(`   /health on :${port}: ${pluginId}@${p.version}, status ${health.status}`);
    // The web console ships in the tarball: the page and the script it loads answer.
    const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: "text/html" } });
    const html = await page.text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const js = script ? await fetch(`http://127.0.0.1:${port}${script}`) : undefined;
    check(
      page.ok && js?.ok === true,
      `the console did not answer from the installed package: GET / ${page.status}, script ${script ?? "none"} ${js?.status ?? ""}`,
    );
    if (js)
      console.log(
        `   console on :${port}: page and ${script} (${(await js.arrayBuffer()).byteLength} bytes)`,
      );
  } finally {
    await stop(child);
  }
};

const run = async (cmd, args, dir) => sh(cmd, args, { cwd: dir, env: clientEnv });

/** Disk use of a folder (du -sk), in MB. */
const sizeMb = async (dir) => {
  const { stdout } = await sh("du", ["-sk", dir]);
  return Number(stdout.split(/\s/)[0]) / 1024;
};

/** Installed package folders under node_modules named `name`, nested copies included (npm and pnpm). */
const installedCopies = async (dir, name) => {
  const { stdout } = await sh(
    "find",
    [join(dir, "node_modules"), "-path", `*/node_modules/${name}/package.json`, "-not", "-path", "*/.bin/*"],
    { allowFail: true },
  );
  const byVersion = new Map();
  for (const file of stdout.split("\n").filter(Boolean)) {
    const version = JSON.parse(readFileSync(file, "utf8")).version;
    byVersion.set(version, [...(byVersion.get(version) ?? []), dirname(file)]);
  }
  return byVersion;
};

const installSizes = {};

const flow = async (kind, first, added, removed, bumpLine) => {
  const dir = newProject(`project-${kind}`);
  await step(`${kind}: install @quiver/host ${first.join(" ")} from the registry`, async () => {
    await run(...pm[kind].add(["@quiver/host", ...first]), dir);
    // The host's optional peer is not installed with it (npm 7+ and pnpm install required peers).
    const redis = await installedCopies(dir, "@quiver/redis");
    check(redis.size === 0, `@quiver/redis came with @quiver/host (${kind}): ${JSON.stringify([...redis])}`);
    installSizes[kind] = await sizeMb(join(dir, "node_modules"));
    console.log(
      `   install size of @quiver/host ${first.join(" ")} with ${kind}: ${installSizes[kind].toFixed(1)} MB (du of node_modules); no @quiver/redis`,
    );
    await expectList(kind, dir, first);
  });
  let now = [...first, ...added];
  await step(`${kind}: install ${added.join(" ")}`, async () => {
    await run(...pm[kind].add(added), dir);
    await expectList(kind, dir, now);
  });
  now = now.filter((p) => p !== removed);
  await step(`${kind}: remove ${removed}`, async () => {
    await run(...pm[kind].remove([removed]), dir);
    await expectList(kind, dir, now);
  });
  const version = await step(`${kind}: bump @quiver/plugin-fda with a changeset, version, publish`, () =>
    bumpFda(bumpLine),
  );
  await step(
    `${kind}: upgrade @quiver/plugin-fda to ${version}; quiver list and /health show it`,
    async () => {
      await run(...pm[kind].upgrade("@quiver/plugin-fda"), dir);
      const list = await expectList(kind, dir, now);
      check(
        list.plugins.find((p) => p.id === "fda")?.version === version,
        `fda is not at ${version} in quiver list`,
      );
      await expectHealth(kind, dir, "fda", version);
    },
  );
  return { dir, plugins: now };
};

// --- the outside author's plugin (examples/third-party-plugin, private in the repository) -----------
const EXAMPLE = "examples/third-party-plugin";
/**
 * The name the copied-out example is published under here: never the example's generic name, and
 * still `<scope>/quiver-plugin-<id>` (@quiver/testing's package check wants the plugin id in it).
 */
const GLOSSARY = "@quiver-release-test/quiver-plugin-glossary";

/**
 * The author's side, as the example's README says: copy the folder out of the repository, name it,
 * install from the registry, build, test (conformance + package check from the published
 * @quiver/testing), publish.
 */
const thirdPartyAuthor = async () => {
  const dir = join(tmp, "third-party-author");
  const { stdout } = await sh("git", ["ls-files", "-z", EXAMPLE], { cwd: repo });
  for (const f of stdout.split("\0").filter(Boolean)) {
    const to = join(dir, f.slice(EXAMPLE.length + 1));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(join(repo, f), to);
  }
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  for (const field of ["dependencies", "devDependencies", "peerDependencies"])
    for (const [dep, range] of Object.entries(manifest[field] ?? {}))
      check(
        !/^(workspace|catalog):/.test(range),
        `the example's ${field}.${dep} is "${range}": it cannot be copied out`,
      );
  check(
    manifest.private === true,
    "the example is not private in the repository: it would claim its generic name",
  );
  delete manifest.private;
  manifest.name = GLOSSARY;
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], dir);
  await run("npm", ["run", "build"], dir);
  const tests = await sh("npm", ["test", "--", "--reporter=dot"], {
    cwd: dir,
    env: clientEnv,
    allowFail: true,
  });
  const summary = `${tests.stdout}${tests.stderr}`.match(/Tests\s+.*$/m)?.[0] ?? "";
  check(
    tests.code === 0,
    `the copied-out example's tests against the published kit failed:\n${tests.stdout}${tests.stderr}`,
  );
  await run("npm", ["publish"], dir);
  const core = JSON.parse(readFileSync(join(dir, "node_modules/@quiver/core/package.json"), "utf8")).version;
  console.log(
    `   copied out, npm install (@quiver/core ${core}), build, test: ${stripVTControlCharacters(summary)}; published as ${GLOSSARY}@${manifest.version}`,
  );
};

/** The user's side: the host finds the published plugin, runs its command and its demo step. */
const thirdPartyUser = async () => {
  const dir = newProject("third-party-user");
  await run(...pm.npm.add(["@quiver/host", GLOSSARY]), dir);
  await expectList("npm", dir, [GLOSSARY]);
  const file = join(dir, "glossary.jsonl");
  const env = { ...clientEnv, GLOSSARY_FILE: file };
  const add = await sh(
    "npx",
    ["--no-install", "quiver", "glossary", "add", "RAG", "Retrieval-augmented", "generation"],
    {
      cwd: dir,
      env,
      allowFail: true,
    },
  );
  check(add.code === 0, `quiver glossary add exited ${add.code}:\n${add.stdout}${add.stderr}`);
  const call = await sh(
    "npx",
    ["--no-install", "quiver", "call", "glossary_lookup_term", "--input", '{"term":"rag"}', "--json"],
    {
      cwd: dir,
      env,
      allowFail: true,
    },
  );
  const answer = JSON.parse(call.stdout || "{}");
  check(
    call.code === 0 && answer.data?.definition === "Retrieval-augmented generation",
    `quiver call glossary_lookup_term answered ${call.code}:\n${call.stdout}${call.stderr}`,
  );
  console.log(`   quiver glossary add, then quiver call glossary_lookup_term: "${answer.data.definition}"`);
  // Demo mode: the plugin's own demo step fills the store from the data it ships.
  const port = await freePort();
  const child = start(
    "npx",
    ["--no-install", "quiver", "serve", "--demo", "--port", String(port), "--host", "127.0.0.1"],
    {
      cwd: dir,
      env: clientEnv,
    },
  );
  try {
    await waitFor(`http://127.0.0.1:${port}/health`, child);
    const r = await fetch(`http://127.0.0.1:${port}/tools/glossary_lookup_term/call`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ term: "MCP" }),
    });
    const envelope = await r.json();
    check(
      envelope.status === "success",
      `the demo glossary did not answer "MCP": ${JSON.stringify(envelope)}`,
    );
    console.log(
      `   quiver serve --demo: glossary_lookup_term("MCP") -> ${envelope.data.definition.slice(0, 40)}…`,
    );
  } finally {
    await stop(child);
  }
};

// --- a breaking core ---------------------------------------------------------------------------
const readManifest = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
/** The folder Node resolves `name` to from `from` (a package folder or the project): nested first. */
const resolvedFrom = (project, from, name) => {
  for (let d = from; d.startsWith(project); d = dirname(d)) {
    const candidate = join(d, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (d === project) break;
  }
  return undefined;
};

/**
 * A core major reaches the registry while the npm project sits on the 0.x set: the releases must
 * be majors with bounded ranges, `npm update` must keep the set together, and installing only the
 * new host must not load the old plugins against the new core silently (npm refuses, or the host
 * does with its message), until the user takes the whole new set.
 */
const breakingCore = async ({ dir, plugins }) => {
  const hostDir = join(dir, "node_modules", "@quiver", "host");
  const oldHost = readManifest(hostDir).version;
  const oldCore = readManifest(resolvedFrom(dir, hostDir, "@quiver/core")).version;
  const core = await step(
    "a breaking @quiver/core: a major changeset, version-packages, publish",
    async () => {
      writeFileSync(
        join(repo, ".changeset", "release-test-core-major.md"),
        `---\n"@quiver/core": major\n---\n\nRelease test: a breaking core.\n`,
      );
      const core = (await versionAndPublish())["@quiver/core"];
      check(
        semver.major(core) > semver.major(oldCore),
        `@quiver/core went from ${oldCore} to ${core}, not a major`,
      );
      const shown = [];
      for (const name of ["@quiver/host", ...plugins]) {
        const doc = await (await fetch(`${registry}${name.replace("/", "%2f")}`)).json();
        const latest = doc.versions[doc["dist-tags"].latest];
        const range = latest.peerDependencies?.["@quiver/core"] ?? latest.dependencies?.["@quiver/core"];
        check(
          semver.major(latest.version) >
            semver.major(readManifest(join(dir, "node_modules", ...name.split("/"))).version),
          `${name}@${latest.version} is not a major after the core major: npm update would install it into a 0.x project`,
        );
        const problem = range ? peerRangeProblem(range, core) : "is missing";
        check(!problem, `the published ${name}@${latest.version}'s @quiver/core range "${range}" ${problem}`);
        shown.push(`${name}@${latest.version} (core "${range}")`);
      }
      console.log(`   @quiver/core ${oldCore} -> ${core}; published ${shown.join(", ")}`);
      return core;
    },
  );

  await step("npm update in the project on the old core: the 0.x set stays together", async () => {
    await run("npm", ["update", "--no-audit", "--no-fund", "--loglevel=error"], dir);
    const host = readManifest(hostDir).version;
    const cores = await installedCopies(dir, "@quiver/core");
    check(
      semver.major(host) === semver.major(oldHost) && cores.size === 1 && cores.has(oldCore),
      `after npm update: @quiver/host ${host} (was ${oldHost}), @quiver/core copies ${JSON.stringify([...cores])}`,
    );
    await expectList("npm", dir, plugins);
    console.log(
      `   npm update kept @quiver/host ${host} and one @quiver/core ${oldCore}; new core ${core} not installed`,
    );
  });

  await step(
    "npm install @quiver/host@latest alone: the old plugins do not load against the new core",
    async () => {
      const install = (extra) =>
        sh(
          "npm",
          ["install", "--no-audit", "--no-fund", "--loglevel=error", ...extra, "@quiver/host@latest"],
          {
            cwd: dir,
            env: clientEnv,
            allowFail: true,
          },
        );
      const r = await install([]);
      const out = `${r.stdout}${r.stderr}`;
      if (r.code !== 0) {
        check(/ERESOLVE/.test(out), `npm install @quiver/host@latest failed for another reason:\n${out}`);
        check(
          semver.major(readManifest(hostDir).version) === semver.major(oldHost),
          "npm changed the host although it refused",
        );
        console.log(
          `   npm refuses (exit ${r.code}): ${out
            .split("\n")
            .find((l) => /ERESOLVE/.test(l))
            ?.trim()}`,
        );
        // What npm's message offers next; then the host must refuse the old plugins itself.
        const forced = await install(["--legacy-peer-deps"]);
        check(
          forced.code === 0,
          `npm install --legacy-peer-deps @quiver/host@latest failed:\n${forced.stdout}${forced.stderr}`,
        );
        console.log(`   npm install --legacy-peer-deps @quiver/host@latest (what npm suggests) installs it`);
      }
      const hostCoreDir = resolvedFrom(dir, hostDir, "@quiver/core");
      const hostCore = readManifest(hostCoreDir).version;
      const listed = await sh(...pm.npm.quiver(["list", "--json"]), {
        cwd: dir,
        env: clientEnv,
        allowFail: true,
      });
      const list = JSON.parse(listed.stdout || "{}");
      check(list.plugins, `quiver list --json answered ${listed.code}:\n${listed.stdout}${listed.stderr}`);
      const seen = [];
      for (const name of plugins) {
        const pluginDir = join(dir, "node_modules", ...name.split("/"));
        const plugin = readManifest(pluginDir);
        const coreDir = resolvedFrom(dir, pluginDir, "@quiver/core");
        const fits =
          coreDir === hostCoreDir && semver.satisfies(hostCore, plugin.peerDependencies["@quiver/core"]);
        const loaded = list.plugins.some((p) => p.package === name);
        const problem = list.problems.find((p) => p.package === name);
        check(
          loaded === fits && (fits || problem?.kind === "incompatible"),
          `${name}@${plugin.version} (core "${plugin.peerDependencies["@quiver/core"]}", imports ${coreDir}) with the host's core ${hostCore} (${hostCoreDir}): loaded ${loaded}, problem ${JSON.stringify(problem)}`,
        );
        seen.push(
          fits ? `${name}@${plugin.version} loads` : `${name}@${plugin.version} refused: ${problem.message}`,
        );
      }
      // The new host is in and every plugin in the project is still built for the old core.
      check(
        semver.major(readManifest(hostDir).version) > semver.major(oldHost) &&
          seen.every((line) => line.includes(" refused: ")),
        `@quiver/host ${readManifest(hostDir).version} beside the old plugins: ${seen.join("; ")}`,
      );
      const cores = await installedCopies(dir, "@quiver/core");
      console.log(
        `   npm installed @quiver/host ${readManifest(hostDir).version} (core ${hostCore}; ${cores.size} core copies: ${[...cores.keys()].join(", ")}); quiver list exit ${listed.code}:\n     ${seen.join("\n     ")}`,
      );
    },
  );

  await step("npm install the host and plugins @latest: one core, every plugin loads", async () => {
    await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        ...["@quiver/host", ...plugins].map((n) => `${n}@latest`),
      ],
      dir,
    );
    const cores = await installedCopies(dir, "@quiver/core");
    check(
      cores.size === 1 && cores.has(core),
      `@quiver/core copies after the upgrade: ${JSON.stringify([...cores])}`,
    );
    await expectList("npm", dir, plugins);
  });
};

// --- the bundled one-plugin servers (packages/servers/*) -------------------------------------------
/** Thrown after the steps `--servers-only` asks for: not a failure. */
class StepsDone extends Error {}
/** The first-party plugin packages, from the repository's own folders (every one is published). */
const firstPartyPlugins = () =>
  readdirSync(join(root, "packages", "plugins"))
    .map((d) => JSON.parse(readFileSync(join(root, "packages", "plugins", d, "package.json"), "utf8")))
    .filter((m) => !m.private)
    .map((m) => m.name)
    .sort();

/** The official servers a user would otherwise pick, installed the same way for comparison. */
const OFFICIAL_SERVERS = ["@upstash/context7-mcp", "@perplexity-ai/mcp-server"];

/**
 * For those who compose their own host: `npm install @quiver/host <plugin>` in an empty project for
 * each first-party plugin, and each official server installed the same way, the size of what npm
 * installed (du of node_modules) printed side by side. The size targets belong to the bundled
 * servers (`bundledServers`); this prints the figures, it does not judge them.
 */
const hostSizes = () =>
  step(
    "installed size of @quiver/host with each plugin, beside the official servers (npm, empty project)",
    async () => {
      const sized = async (label, pkgs) => {
        const dir = newProject(`size-${label.replace(/[^a-z0-9]+/gi, "-")}`);
        await run(...pm.npm.add(pkgs), dir);
        const line = `${label}: ${(await sizeMb(join(dir, "node_modules"))).toFixed(1)} MB`;
        serverFigures.push(`install size, ${line}`);
        console.log(`   ${line}`);
        rmSync(dir, { recursive: true, force: true });
      };
      for (const plugin of firstPartyPlugins())
        await sized(`@quiver/host + ${plugin}`, ["@quiver/host", plugin]);
      for (const server of OFFICIAL_SERVERS) await sized(server, [server]);
    },
  );

const serverFigures = [];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Spawns `command args` with the MCP SDK's stdio client as an MCP client's config says, times the
 * spawn to the first tools/list, and closes it. `cache` is npx's cache folder (a new one: cold).
 */
const firstToolsList = async ({ command, args, env = {}, cache, cwd }) => {
  const fromHost = createRequire(join(root, "apps/host/package.json"));
  const { Client } = await import(pathToFileURL(fromHost.resolve("@modelcontextprotocol/client")).href);
  const { StdioClientTransport } = await import(
    pathToFileURL(fromHost.resolve("@modelcontextprotocol/client/stdio")).href
  );
  const t0 = Date.now();
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env: { ...process.env, ...clientEnv, ...(cache ? { npm_config_cache: cache } : {}), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "release-test", version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: 300_000 });
    const { tools } = await client.listTools(undefined, { timeout: 300_000 });
    return { ms: Date.now() - t0, names: tools.map((t) => t.name), client, stderr };
  } catch (error) {
    await client.close().catch(() => {});
    throw new StepError(`${command} ${args.join(" ")}: ${error.message}\n${stderr}`);
  }
};

/** Disk use of what npx installed into a cache (its `_npx` folder), in MB. */
const npxInstallMb = (cache) => sizeMb(join(cache, "_npx"));

const bundledServers = async () => {
  const { SERVED_PLUGINS, loadServedPlugin } = await import(
    pathToFileURL(join(repo, "scripts/servers/served-plugins.mjs")).href
  );
  const servers = await Promise.all(SERVED_PLUGINS.map(loadServedPlugin));
  const dir = newProject("servers");
  await step("bundled servers: each one-liner through npx from an empty cache lists its tools", async () => {
    for (const server of servers) {
      const env = Object.fromEntries(
        server.settings.filter((s) => s.required).map((s) => [s.env, "test-value"]),
      );
      const cache = join(tmp, `npx-cache-${server.id}`);
      const run = await firstToolsList({ command: "npx", args: ["-y", server.name], env, cache, cwd: dir });
      await run.client.close();
      const want = server.plugin.tools.map((t) => t.name).sort();
      check(
        JSON.stringify(run.names.sort()) === JSON.stringify(want),
        `npx -y ${server.name} listed ${run.names.join(", ")}, its plugin defines ${want.join(", ")}:\n${run.stderr}`,
      );
      const mb = await npxInstallMb(cache);
      check(mb <= 15, `npx -y ${server.name} installed ${mb.toFixed(1)} MB, over the 15 MB budget`);
      const line = `${server.name}: ${run.names.length} tools, cold npx start to first tools/list ${secs(run.ms)}, installed ${mb.toFixed(1)} MB`;
      serverFigures.push(line);
      console.log(`   ${line}`);
    }
  });

  await step(
    "bundled servers: each .mcpb, unpacked and started as its mcp_config says, calls a tool against an emulator",
    async () => {
      const { packBundle } = await import(pathToFileURL(join(repo, "scripts/servers/pack-bundles.mjs")).href);
      const { BUNDLE_CALLS, startBundleUpstreams } = await import(
        pathToFileURL(join(repo, "scripts/servers/bundle-calls.mjs")).href
      );
      // The host's command, as a server's README says to write its data: through npx and this registry.
      const quiver = (plugin, args, env = {}) =>
        sh("npx", ["-y", "-p", "@quiver/host", "-p", plugin, "quiver", ...args], {
          cwd: dir,
          env: { ...clientEnv, npm_config_cache: join(tmp, "npx-cache-commands"), ...env },
        });
      const up = await startBundleUpstreams();
      try {
        for (const server of servers) {
          const call = BUNDLE_CALLS[server.id];
          check(call, `scripts/servers/bundle-calls.mjs has no call for the ${server.id} bundle`);
          const { file, bytes } = await packBundle(server.dir, join(tmp, "mcpb"));
          check(bytes <= 10 * 1024 * 1024, `${file} is ${(bytes / 1024 / 1024).toFixed(1)} MB, over 10 MB`);
          const unpacked = join(tmp, "mcpb-unpacked", server.id);
          await sh(join(repo, "node_modules/.bin/mcpb"), ["unpack", file, unpacked]);
          const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
          const data = join(tmp, "bundle-data", server.id);
          mkdirSync(data, { recursive: true });
          await call.prepare?.({ dir: data, quiver });
          // The user's answers to the bundle's questions: the call's settings, a dummy for any other
          // required one, the rest left empty (as a client leaves an optional field).
          const given = call.settings(up, data);
          const answers = Object.fromEntries(
            server.settings.map((s) => [s.field, given[s.env] ?? (s.required ? "test-value" : "")]),
          );
          const fill = (text) =>
            text
              .replaceAll("$" + "{__dirname}", unpacked)
              .replace(/\$\{user_config\.(\w+)\}/g, (_, k) => String(answers[k] ?? ""));
          const { command, args, env } = manifest.server.mcp_config;
          const run = await firstToolsList({
            command: command === "node" ? process.execPath : command,
            args: args.map(fill),
            env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)])),
            cwd: dir,
          });
          try {
            const t0 = Date.now();
            const result = await run.client.callTool(
              { name: call.tool, arguments: call.arguments },
              undefined,
              { timeout: 120_000 },
            );
            const envelope = result.structuredContent ?? {};
            const answer = `${result.content.map((c) => c.text ?? "").join("\n")}\n${run.stderr}`;
            check(
              !result.isError && envelope.status === "success",
              `the ${server.id} bundle's ${call.tool} answered ${envelope.status ?? "no envelope"}:\n${answer}`,
            );
            check(
              call.expect(envelope.data),
              `the ${server.id} bundle's ${call.tool} answered other data:\n${answer}`,
            );
            console.log(
              `   ${file.split("/").pop()} (${(bytes / 1024 / 1024).toFixed(2)} MB): ${run.names.length} tools, ${call.tool} answered success from ${call.from} in ${secs(Date.now() - t0)}`,
            );
          } finally {
            await run.client.close();
          }
        }
      } finally {
        await up.close();
      }
    },
  );

  if (short) return;
  await step(
    "cold start and installed size beside the official @upstash/context7-mcp (medians of interleaved runs)",
    async () => {
      // Both packages are in the registry's storage first (a warm-up each), so the runs time npx's
      // install from the same local registry, not the proxy's fetch from npmjs.
      const ours = { command: "npx", args: ["-y", "@quiver/context7-mcp"] };
      const theirs = { command: "npx", args: ["-y", "@upstash/context7-mcp"] };
      const times = { ours: [], theirs: [] };
      const sizes = {};
      for (let i = -1; i < 3; i++) {
        for (const [key, cmd] of [
          ["ours", ours],
          ["theirs", theirs],
        ]) {
          const cache = join(tmp, `cold-${key}-${i + 1}`);
          const run = await firstToolsList({ ...cmd, cache, cwd: dir });
          await run.client.close();
          if (i >= 0) times[key].push(run.ms);
          sizes[key] ??= await npxInstallMb(cache);
        }
      }
      const ratio = median(times.ours) / median(times.theirs);
      const line = `cold npx start to first tools/list: @quiver/context7-mcp ${secs(median(times.ours))}, @upstash/context7-mcp ${secs(median(times.theirs))} (${ratio.toFixed(2)}x, target <= 0.5x); installed ${sizes.ours.toFixed(1)} MB vs ${sizes.theirs.toFixed(1)} MB`;
      serverFigures.push(line);
      console.log(`   ${line}`);
    },
  );
};

// ---------------------------------------------------------------------------------------------
// Ctrl-C or a CI timeout: stop the registry and servers before leaving.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    console.error(`\n!! ${signal}: stopping Verdaccio and servers (temporary folder kept: ${tmp})`);
    await Promise.all([...children].map(stop));
    process.exit(130);
  });
}

let failed = false;
try {
  await step("start Verdaccio and register a publisher", startVerdaccio);
  await step("copy the repository and install it", copyRepo);
  await step("version-packages, build, changeset publish (first release)", versionAndPublish);
  if (serversOnly) {
    await bundledServers();
    throw new StepsDone();
  }
  const npmProject = await flow(
    "npm",
    ["@quiver/plugin-fda"],
    ["@quiver/plugin-alphafold", "@quiver/plugin-perplexity"],
    "@quiver/plugin-alphafold",
    "Release test: a patch published with npm's turn.",
  );
  if (!short)
    await flow(
      "pnpm",
      ["@quiver/plugin-fda"],
      ["@quiver/plugin-alphafold", "@quiver/plugin-context7"],
      "@quiver/plugin-alphafold",
      "Release test: a patch published with pnpm's turn.",
    );
  await step(
    "third-party plugin: copied out of the repository, installed from the registry, built, tested, published",
    thirdPartyAuthor,
  );
  await step(
    "third-party plugin: installed beside @quiver/host, its tool, command and demo step work",
    thirdPartyUser,
  );
  await step("npx @quiver/host in an empty folder (no install)", async () => {
    const dir = newProject("npx");
    // A cache of its own: npx reuses an earlier run's install of the same version (another registry's
    // 0.1.0), which would test that instead of what was just published.
    const npxEnv = { ...clientEnv, npm_config_cache: join(tmp, "npx-cache") };
    const version = await sh("npx", ["--yes", "@quiver/host", "--version"], { cwd: dir, env: npxEnv });
    const published = JSON.parse(readFileSync(join(repo, "apps/host/package.json"), "utf8")).version;
    check(
      version.stdout.trim() === published,
      `npx @quiver/host --version printed ${version.stdout.trim()}, expected ${published}`,
    );
    const list = await sh("npx", ["--yes", "@quiver/host", "list", "--json"], {
      cwd: dir,
      env: npxEnv,
      allowFail: true,
    });
    check(list.code === 0, `npx @quiver/host list --json exited ${list.code}:\n${list.stdout}${list.stderr}`);
    const tools = JSON.parse(list.stdout).tools.map((t) => t.name);
    console.log(`   npx @quiver/host ${published}: list shows ${tools.join(", ") || "no tools"}`);
  });
  await step("an MCP client launches quiver with a plugin through npx (stdio, fresh npx cache)", async () => {
    // How Claude Desktop, Cursor and most MCP clients start a server: a command and its arguments.
    // The MCP SDK's own stdio client spawns npx; the host must discover the plugin npx installed
    // beside it, whatever the working directory.
    const dir = newProject("npx-stdio");
    const firstList = async (cache) => {
      const run = await firstToolsList({
        command: "npx",
        args: ["-y", "-p", "@quiver/host", "-p", "@quiver/plugin-fda", "quiver", "serve", "--stdio"],
        cwd: dir,
        cache,
      });
      await run.client.close().catch(() => {});
      return run;
    };
    const cache = join(tmp, "npx-stdio-cache");
    const cold = await firstList(cache);
    check(
      cold.names.includes("fda_search_drugs"),
      `npx -p @quiver/host -p @quiver/plugin-fda quiver serve --stdio listed ${cold.names.join(", ")}:\n${cold.stderr}`,
    );
    const warm = await firstList(cache);
    check(warm.names.includes("fda_search_drugs"), `the warm npx run listed ${warm.names.join(", ")}`);
    console.log(
      `   ${cold.names.length} tools (fda's among them); spawn to first tools/list: ${secs(cold.ms)} with a fresh npx cache, ${secs(warm.ms)} warm`,
    );
  });
  await breakingCore(npmProject);
  if (!short) await hostSizes();
  await bundledServers();
} catch (error) {
  if (error instanceof StepsDone) {
    // --servers-only: the steps asked for are done.
  } else {
    failed = true;
    console.error(
      `\n!! release test failed: ${error instanceof StepError ? error.message : (error?.stack ?? error)}`,
    );
    const verdaccio = registryProcess;
    if (verdaccio?.output)
      console.error(`\n-- registry log (last lines):\n${verdaccio.output.split("\n").slice(-20).join("\n")}`);
  }
} finally {
  await Promise.all([...children].map(stop));
  if (keep || failed) console.log(`\ntemporary folder kept: ${tmp}`);
  if (!keep && !failed) rmSync(tmp, { recursive: true, force: true });
  console.log("\n== timings");
  for (const [name, ms] of timings) console.log(`   ${secs(ms).padStart(7)}  ${name}`);
  console.log(`   ${secs(Date.now() - started).padStart(7)}  total${failed ? " (FAILED)" : ""}`);
  for (const [kind, mb] of Object.entries(installSizes))
    console.log(`   install size, @quiver/host + @quiver/plugin-fda with ${kind}: ${mb.toFixed(1)} MB`);
  for (const line of serverFigures) console.log(`   ${line}`);
}
process.exit(failed ? 1 : 0);
