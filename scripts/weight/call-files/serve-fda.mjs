// `quiver serve` (the built CLI) under the inspector, in a temporary project that depends on the fda
// plugin only, pointed at an openFDA emulator (@quiver/testing's, in this process, so its code is not
// in the server's coverage) that answers every drugsfda and label search with one real record.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
/** The monorepo root. */
export const REPO = join(HERE, "..", "..", "..");
const HOST = join(REPO, "apps", "host");
const FIXTURE = join(HERE, "..", "fixtures", "drugsfda-one-result.json");
const FDA = "@quiver/plugin-fda";

/** @quiver/testing's emulator, resolved from the host's dependencies (the root does not depend on it). */
const loadEmulator = async () => {
  const at = createRequire(join(HOST, "package.json")).resolve("@quiver/testing");
  return (await import(pathToFileURL(at).href)).startEmulator;
};

/** Resolves with the first capture of `pattern` in the child's stderr; rejects if it exits first. */
const waitForStderr = (child, pattern, what, seen) =>
  new Promise((resolve, reject) => {
    const onData = () => {
      const m = pattern.exec(seen.text);
      if (!m) return;
      clearTimeout(timer);
      child.stderr.off("data", onData);
      child.off("close", onClose);
      resolve(m[1]);
    };
    const onClose = (code) => {
      clearTimeout(timer);
      reject(new Error(`${what}: quiver serve exited with ${code}:\n${seen.text}`));
    };
    const timer = setTimeout(() => reject(new Error(`${what} did not appear:\n${seen.text}`)), 60_000);
    child.stderr.on("data", onData);
    child.on("close", onClose);
    onData();
  });

/** Stops the child (SIGTERM, SIGKILL after 10 s) and resolves once it has exited. */
const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });

/**
 * Starts the emulator and `node --inspect=127.0.0.1:0 apps/host/dist/cli.js serve --port 0`.
 * Resolves with the HTTP base URL, the inspector's WebSocket URL and `close()` (stops both, removes
 * the project folder).
 *
 * @example
 * const server = await serveFda();
 * await fetch(`${server.base}/tools`);
 * await server.close();
 */
export const serveFda = async () => {
  const cli = join(HOST, "dist", "cli.js");
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (pnpm build)`);
  const startEmulator = await loadEmulator();
  const upstream = await startEmulator();
  const record = JSON.parse(readFileSync(FIXTURE, "utf8"));
  upstream.route("GET", /^\/drug\/(drugsfda|label)\.json$/, { json: record });

  const dir = mkdtempSync(join(tmpdir(), "quiver-weight-"));
  const link = join(dir, "node_modules", FDA);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(join(HOST, "node_modules", FDA), link, "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, dependencies: { [FDA]: "*" } }));
  writeFileSync(
    join(dir, "quiver.config.json"),
    JSON.stringify({ plugins: { fda: { options: { baseUrl: upstream.url } } } }),
  );
  const child = spawn(process.execPath, ["--inspect=127.0.0.1:0", cli, "serve", "--port", "0"], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
    stdio: "pipe",
  });
  const seen = { text: "" };
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d) => {
    seen.text += d;
  });
  child.stdout.resume();
  const close = async () => {
    await stop(child);
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const inspector = await waitForStderr(child, /Debugger listening on (ws:\/\/\S+)/, "the inspector", seen);
    const base = await waitForStderr(child, /serving on (http:\/\/\S+?) /, "the HTTP address", seen);
    return { base, inspector, upstream, close };
  } catch (error) {
    await close();
    throw error;
  }
};
