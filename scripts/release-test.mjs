#!/usr/bin/env node
// The release flow, end to end, against a real local npm registry (Verdaccio from npm):
//   1. start Verdaccio on 127.0.0.1 (free port, temporary storage; @quiver/* local only, other
//      packages proxied to the npm registry) and register a user for the publish token;
//   2. copy the repository (git ls-files: tracked and new files, never the checkout itself) and
//      install it; run `changeset version` and the publish step (build, then `changeset publish`:
//      `pnpm release` minus the test suite and check:artifacts, which CI runs on their own);
//   3. npm, in a new folder: install @quiver/host and two plugins from the registry, `quiver list
//      --json` shows exactly their tools (read from the installed plugin packages); install a third,
//      it appears; remove one, it goes; bump a plugin with a changeset, publish, upgrade it, and see
//      the new version in `quiver list --json` and in `/health` of `quiver serve`;
//   4. the same with pnpm; 5. `npx @quiver/host` in an empty folder.
// Prints each step's time and the total. Always stops Verdaccio and the servers it started.
//
// Usage: node scripts/release-test.mjs [--keep]   (--keep leaves the temporary folder for a look)
import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");
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
      "packages:",
      "  '@quiver/*':",
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
};

/** `changeset version`, then the publish step, in the repository copy, against the test registry. */
const versionAndPublish = async () => {
  await sh("pnpm", ["exec", "changeset", "version"], { cwd: repo, env: clientEnv });
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
  for (const name of pkgs) {
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

const flow = async (kind, first, third, removed, bumpLine) => {
  const dir = newProject(`project-${kind}`);
  await step(`${kind}: install @quiver/host ${first.join(" ")} from the registry`, async () => {
    await run(...pm[kind].add(["@quiver/host", ...first]), dir);
    await expectList(kind, dir, first);
  });
  let now = [...first, third];
  await step(`${kind}: install a third plugin, ${third}`, async () => {
    await run(...pm[kind].add([third]), dir);
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
};

// --- the outside author's plugin (examples/third-party-plugin, published as quiver-plugin-glossary) --
const EXAMPLE = "examples/third-party-plugin";

/** The author's side: the example's sources and tests against the published core and testing kit. */
const thirdPartyAuthor = async () => {
  const dir = newProject("third-party-author");
  for (const part of ["src", "test", "demo", "README.md", "LICENSE"])
    cpSync(join(root, EXAMPLE, part), join(dir, part), { recursive: true });
  const example = JSON.parse(readFileSync(join(root, EXAMPLE, "package.json"), "utf8"));
  const published = (d) => JSON.parse(readFileSync(join(repo, d, "package.json"), "utf8")).version;
  const catalogVersion = (name) =>
    readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")
      .match(new RegExp(`\\n\\s+"?${name}"?: (.+)`))[1]
      .trim();
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      {
        ...example,
        private: true,
        devDependencies: {
          "@quiver/core": published("packages/core"),
          "@quiver/testing": published("packages/testing"),
          "@types/node": catalogVersion("@types/node"),
          vitest: catalogVersion("vitest"),
          zod: catalogVersion("zod"),
        },
      },
      null,
      2,
    ),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], dir);
  const tests = await sh("npx", ["--no-install", "vitest", "run", "--reporter=dot"], {
    cwd: dir,
    env: clientEnv,
    allowFail: true,
  });
  const summary = `${tests.stdout}${tests.stderr}`.match(/Tests\s+.*$/m)?.[0] ?? "";
  check(
    tests.code === 0,
    `the example's tests against the published kit failed:\n${tests.stdout}${tests.stderr}`,
  );
  console.log(
    `   conformance + package check from the published @quiver/testing: ${stripVTControlCharacters(summary)}`,
  );
};

/** The user's side: the host finds the published plugin, runs its command and its demo step. */
const thirdPartyUser = async () => {
  const dir = newProject("third-party-user");
  await run(...pm.npm.add(["@quiver/host", "quiver-plugin-glossary"]), dir);
  await expectList("npm", dir, ["quiver-plugin-glossary"]);
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
  await step("changeset version, build, changeset publish (first release)", versionAndPublish);
  await flow(
    "npm",
    ["@quiver/plugin-fda", "@quiver/plugin-alphafold"],
    "@quiver/plugin-perplexity",
    "@quiver/plugin-alphafold",
    "Release test: a patch published with npm's turn.",
  );
  await flow(
    "pnpm",
    ["@quiver/plugin-fda", "@quiver/plugin-alphafold"],
    "@quiver/plugin-context7",
    "@quiver/plugin-alphafold",
    "Release test: a patch published with pnpm's turn.",
  );
  await step(
    "third-party plugin: its tests pass on the published @quiver/core and @quiver/testing",
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
    const fromHost = createRequire(join(root, "apps/host/package.json"));
    const { Client } = await import(pathToFileURL(fromHost.resolve("@modelcontextprotocol/client")).href);
    const { StdioClientTransport } = await import(
      pathToFileURL(fromHost.resolve("@modelcontextprotocol/client/stdio")).href
    );
    const firstList = async (cache) => {
      const t0 = Date.now();
      const transport = new StdioClientTransport({
        command: "npx",
        args: ["-y", "-p", "@quiver/host", "-p", "@quiver/plugin-fda", "quiver", "serve", "--stdio"],
        cwd: dir,
        env: { ...process.env, ...clientEnv, npm_config_cache: cache },
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (d) => (stderr += d));
      const client = new Client({ name: "release-test", version: "1.0.0" });
      try {
        await client.connect(transport);
        const { tools } = await client.listTools();
        return { ms: Date.now() - t0, names: tools.map((t) => t.name), stderr };
      } finally {
        await client.close().catch(() => {});
      }
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
} catch (error) {
  failed = true;
  console.error(
    `\n!! release test failed: ${error instanceof StepError ? error.message : (error?.stack ?? error)}`,
  );
  const verdaccio = registryProcess;
  if (verdaccio?.output)
    console.error(`\n-- registry log (last lines):\n${verdaccio.output.split("\n").slice(-20).join("\n")}`);
} finally {
  await Promise.all([...children].map(stop));
  if (keep || failed) console.log(`\ntemporary folder kept: ${tmp}`);
  if (!keep && !failed) rmSync(tmp, { recursive: true, force: true });
  console.log("\n== timings");
  for (const [name, ms] of timings) console.log(`   ${secs(ms).padStart(7)}  ${name}`);
  console.log(`   ${secs(Date.now() - started).padStart(7)}  total${failed ? " (FAILED)" : ""}`);
}
process.exit(failed ? 1 : 0);
