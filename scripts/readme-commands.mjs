#!/usr/bin/env node
// README commands, verbatim, in a fresh clone: every command of the fenced bash blocks of README.md,
// apps/host/README.md and examples/*/README.md runs in a `git clone` of this working tree (its uncommitted
// changes applied) made in an empty temporary folder, with nothing beside it, in the environment of a
// user's shell (no QUIVER_* variable, no PATH entry of this checkout). A server (`./dev start`,
// `quiver serve`, a line ending in `&`) is started, waited for on its port (GET /health, bounded), left up
// for the commands after it in the same README and stopped at the README's end or when another server
// starts. A command fails on a non-zero exit (the exit of its last stage, as an interactive shell reports
// it); a command with `--json` in its last stage, or an unpiped `curl` of the API, fails unless its stdout
// is one JSON document, and an envelope there fails unless its status is success or partial; a `--json`
// stage piped on (`quiver doctor --json | jq …`) is also run alone and must print JSON. Blocks and
// lines that need a real API key, the network or a user's own project carry a marker in the README
// (scripts/readme-commands/extract.mjs) and are skipped with its reason printed.
//
// Usage: node scripts/readme-commands.mjs [README ...] [--keep]   (./dev test:readme). Ends with
// "README commands: N ran, N failed, N skipped"; exits 1 when a command failed. --keep leaves the clone for a look.
// Bounds: README_COMMAND_TIMEOUT (s, default 900: the first command sets the clone up) and
// README_SERVER_WAIT (s, default 900) per command and per server start.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { classify, extractBlocks } from "./readme-commands/extract.mjs";

const root = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const keep = args.includes("--keep");
const commandTimeoutMs = Number(process.env.README_COMMAND_TIMEOUT ?? 900) * 1000;
const serverWaitMs = Number(process.env.README_SERVER_WAIT ?? 900) * 1000;
const OK_STATUSES = new Set(["success", "partial"]);
/** A line whose effect a user's shell keeps for the lines after it (a variable, a folder). */
const KEEPS_STATE = /^(?:export\s+\w+=|cd\s)/;
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
const log = (line) => process.stdout.write(`${line}\n`);

const readmes = () => {
  const named = args.filter((a) => !a.startsWith("--"));
  if (named.length > 0) return named;
  const examples = readdirSync(join(root, "examples"))
    .map((name) => join("examples", name, "README.md"))
    .filter((path) => existsSync(join(root, path)))
    .sort();
  return ["README.md", "apps/host/README.md", ...examples];
};

/** jq is used by the READMEs' commands; a fresh Debian machine may lack it. */
const ensureJq = () => {
  if (spawnSync("sh", ["-c", "command -v jq"], { stdio: "ignore" }).status === 0) return;
  log("[readme] installing jq (Debian package) for the READMEs' commands");
  const asRoot = process.getuid?.() === 0 ? "" : "sudo -n ";
  spawnSync(
    "sh",
    [
      "-c",
      `${asRoot}apt-get update -qq >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive ${asRoot}apt-get install -y -qq jq >/dev/null 2>&1`,
    ],
    { stdio: "inherit" },
  );
};

/** A clone of this working tree, uncommitted and untracked (not ignored) files included, alone in a new folder. */
const cloneWorkingTree = () => {
  const folder = mkdtempSync(join(tmpdir(), "quiver-readme-"));
  const clone = join(folder, "quiver");
  const git = (cwd, gitArgs, input) => {
    const run = spawnSync("git", gitArgs, { cwd, input, maxBuffer: 1 << 30 });
    if (run.status !== 0) throw new Error(`git ${gitArgs.join(" ")}: ${run.stderr}`);
    return run.stdout;
  };
  git(root, ["clone", "--quiet", "--no-hardlinks", root, clone]);
  const diff = git(root, ["diff", "HEAD", "--binary"]);
  if (diff.length > 0) git(clone, ["apply", "--whitespace=nowarn"], diff);
  const untracked = git(root, ["ls-files", "--others", "--exclude-standard", "-z"])
    .toString()
    .split("\0")
    .filter(Boolean);
  for (const path of untracked) {
    mkdirSync(dirname(join(clone, path)), { recursive: true });
    cpSync(join(root, path), join(clone, path));
  }
  const changed = git(root, ["status", "--porcelain"]).toString().split("\n").filter(Boolean).length;
  log(`[readme] fresh clone of ${root} at ${clone} (${changed} uncommitted change(s) applied)`);
  return { folder, clone };
};

/** A user's shell environment: nothing of Quiver's own set-up or of the package manager running this script. */
const userEnvironment = () => {
  const inside = [root, join(root, ".tools")].flatMap((p) => (existsSync(p) ? [p, realpathSync(p)] : [p]));
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(QUIVER_|npm_|PNPM_|pnpm_|INIT_CWD$|NODE_OPTIONS$|VITEST|TURBO_)/i.test(key)) continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(":")
    .filter(
      (entry) =>
        entry &&
        !inside.some((p) => entry === p || entry.startsWith(`${p}/`)) &&
        !entry.includes("/node_modules/"),
    )
    .join(":");
  return env;
};

const portAnswers = (port) =>
  new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      done(true);
    });
    socket.on("error", () => done(false));
  });

const healthy = async (port) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
};

/** Stops a process group this script started: TERM, then KILL after 10 s. */
const stopGroup = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }, 10_000);
  await exited;
  clearTimeout(timer);
};

/** Starts one command line with bash in its own process group (stopped as a whole); collects its output. */
const spawnLine = (command, cwd, env) => {
  const child = spawn("bash", ["-c", command], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = [];
  const err = [];
  child.stdout.on("data", (c) => out.push(c));
  child.stderr.on("data", (c) => err.push(c));
  return { child, out, err };
};

/** Runs one command line with bash in the clone; resolves with its exit code and output. */
const runCommand = (command, cwd, env) =>
  new Promise((done) => {
    const { child, out, err } = spawnLine(command, cwd, env);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void stopGroup(child);
    }, commandTimeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({
        code: timedOut ? "timeout" : (code ?? signal),
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      });
    });
  });

/** Starts a server line and waits (bounded) for GET /health on its port. */
const startServer = async (command, port, cwd, env) => {
  if (await portAnswers(port))
    return { error: `port ${port} is already in use by another process: stop it, then run again` };
  const { child, out: output } = spawnLine(command, cwd, env);
  child.stderr.on("data", (c) => output.push(c));
  const deadline = Date.now() + serverWaitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await healthy(port)) return { child, output };
    await new Promise((r) => setTimeout(r, 500));
  }
  const exited = child.exitCode !== null || child.signalCode !== null;
  await stopGroup(child);
  return {
    error: exited
      ? `exited (${child.exitCode ?? child.signalCode}) before answering on :${port}`
      : `no answer on :${port} within ${serverWaitMs / 1000}s`,
    output,
  };
};

/** What is wrong with a JSON command's stdout, if anything. */
const jsonProblem = (stdout, envelope = true) => {
  let value;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    return `stdout is not one JSON document (${error.message}): ${JSON.stringify(stdout.slice(0, 200))}`;
  }
  if (
    envelope &&
    value &&
    typeof value === "object" &&
    typeof value.status === "string" &&
    "message" in value &&
    !OK_STATUSES.has(value.status)
  ) {
    return `the envelope's status is ${value.status}: ${value.message}`;
  }
  return undefined;
};

const tail = (text, n = 25) =>
  text
    .trimEnd()
    .split("\n")
    .slice(-n)
    .map((l) => `      | ${l}`)
    .join("\n");

const main = async () => {
  ensureJq();
  const { folder, clone } = cloneWorkingTree();
  const baseEnv = userEnvironment();
  const shims = mkdtempSync(join(tmpdir(), "quiver-readme-bin-"));
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const servers = new Map();
  const cleanup = async () => {
    for (const { child } of servers.values()) await stopGroup(child);
    servers.clear();
  };
  process.once("SIGINT", () => cleanup().then(() => process.exit(130)));
  process.once("SIGTERM", () => cleanup().then(() => process.exit(143)));

  for (const readme of readmes()) {
    const fileStarted = Date.now();
    const { quiver, blocks } = extractBlocks(readFileSync(join(clone, readme), "utf8"));
    const prelude = [];
    const env = { ...baseEnv };
    if (quiver) {
      // The file's `quiver` is the CLI on PATH, as in a project that installed @quiver/host.
      const bin = join(shims, relative(root, join(root, readme)).replace(/[/.]/g, "_"));
      mkdirSync(bin, { recursive: true });
      writeFileSync(
        join(bin, "quiver"),
        `#!/usr/bin/env bash\nexec ${quiver.replace(/^\.\//, `${clone}/`)} "$@"\n`,
      );
      chmodSync(join(bin, "quiver"), 0o755);
      env.PATH = `${bin}:${env.PATH}`;
    }
    log(`\n== ${readme}${quiver ? ` (quiver is ${quiver})` : ""}`);
    for (const block of blocks) {
      for (const command of block.commands) {
        const where = `${readme}:${command.line}`;
        const reason = block.skip ?? command.skip;
        if (reason) {
          counts.skipped++;
          log(`  skip ${where}  ${command.text}\n      (${reason})`);
          continue;
        }
        const step = classify(command.text);
        const t0 = Date.now();
        if (step.kind === "server") {
          const running = servers.get(step.port);
          if (running) {
            await stopGroup(running.child);
            servers.delete(step.port);
          }
          const result = await startServer(step.command, step.port, clone, env);
          if (result.error) {
            counts.failed++;
            log(
              `  FAIL ${where}  ${command.text}\n      server ${result.error} (${seconds(t0)})\n${tail(Buffer.concat(result.output ?? []).toString())}`,
            );
            continue;
          }
          servers.set(step.port, result);
          counts.passed++;
          log(
            `  ok   ${where}  ${command.text}\n      serving on :${step.port} after ${seconds(t0)} (stopped at the end of ${readme} or by the next server there)`,
          );
          continue;
        }
        // One shell per line, as exact as a script can be; what a user's shell keeps (export, cd) is replayed.
        const result = await runCommand([...prelude, step.command].join("\n"), clone, env);
        if (result.code === 0 && KEEPS_STATE.test(step.command)) prelude.push(step.command);
        let problem =
          result.code !== 0
            ? `exit ${result.code}`
            : step.json
              ? jsonProblem(result.stdout.trim())
              : undefined;
        if (!problem && step.producer) {
          // The `--json` stage alone: its JSON must be there, whatever the stages after it make of it.
          // Exit 1 is an answer (`quiver doctor` reporting a plugin that is not ok); 2 and above are not.
          const producer = await runCommand([...prelude, step.producer].join("\n"), clone, env);
          const producerProblem =
            producer.code === 0 || producer.code === 1
              ? jsonProblem(producer.stdout.trim(), false)
              : `exit ${producer.code}`;
          if (producerProblem) problem = `${step.producer}: ${producerProblem}`;
        }
        const firstLine = result.stdout.trim().split("\n")[0]?.slice(0, 160) ?? "";
        if (problem) {
          counts.failed++;
          log(
            `  FAIL ${where}  ${command.text}\n      ${problem} (${seconds(t0)})\n${tail(`${result.stdout}\n${result.stderr}`)}`,
          );
        } else {
          counts.passed++;
          log(
            `  ok   ${where}  ${command.text}\n      ${seconds(t0)}${step.json ? ", JSON" : ""}: ${firstLine}`,
          );
        }
      }
    }
    await cleanup();
    log(`   ${readme}: ${seconds(fileStarted)}`);
  }
  await cleanup();
  if (keep) log(`[readme] clone kept at ${clone}`);
  else rmSync(folder, { recursive: true, force: true });
  rmSync(shims, { recursive: true, force: true });
  log(`\nREADME commands in a fresh clone: ${seconds(started)}`);
  // Not the "N passed, N failed" form: .ci/run's last such line is the whole run's total.
  log(`README commands: ${counts.passed} ran, ${counts.failed} failed, ${counts.skipped} skipped`);
  process.exitCode = counts.failed > 0 ? 1 : 0;
};

await main();
