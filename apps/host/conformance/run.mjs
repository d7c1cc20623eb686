#!/usr/bin/env node
// Runs the official MCP conformance server suite (@modelcontextprotocol/conformance) against the
// built `quiver serve` (apps/host/dist/cli.js) over Streamable HTTP, with the conformance fixture
// plugin (test/fixtures/plugins/conformance) loaded and expected-failures.yml as the baseline.
// Prints each scenario's result; exits 0 only when every scenario not in the baseline passes and
// every baselined one still fails. Usage: node apps/host/conformance/run.mjs [--suite all] [--verbose]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const hostDir = join(here, "..");
const cli = join(hostDir, "dist", "cli.js");
const plugin = join(hostDir, "test", "fixtures", "plugins", "conformance");
const require = createRequire(join(hostDir, "package.json"));
const suiteCli = join(
  dirname(require.resolve("@modelcontextprotocol/conformance/package.json")),
  "dist",
  "index.js",
);

// An empty project: only the fixture plugin (and the host's built-in tools) are served.
const project = mkdtempSync(join(tmpdir(), "quiver-conformance-"));
writeFileSync(join(project, "quiver.config.json"), JSON.stringify({ discover: false }));
const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? project, NO_COLOR: "1" };

const serve = spawn(process.execPath, [cli, "serve", "--port", "0", "--plugin", plugin], {
  cwd: project,
  env,
});
let serveLog = "";
const cleanup = () => {
  serve.kill("SIGTERM");
  rmSync(project, { recursive: true, force: true });
};
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`quiver serve did not start:\n${serveLog}`)), 30_000);
  serve.stderr.on("data", (d) => {
    serveLog += d;
    const m = /serving on (http:\/\/\S+?) /.exec(serveLog);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  serve.on("close", () => reject(new Error(`quiver serve exited:\n${serveLog}`)));
}).catch((error) => {
  cleanup();
  console.error(error.message);
  process.exit(2);
});

const args = [
  suiteCli,
  "server",
  "--url",
  `${url}/mcp`,
  "--expected-failures",
  join(here, "expected-failures.yml"),
];
const extra = process.argv.slice(2);
const started = Date.now();
const suite = spawn(process.execPath, [...args, ...extra], {
  cwd: project,
  env,
  stdio: ["ignore", "pipe", "pipe"],
});
let out = "";
suite.stdout.on("data", (d) => (out += d));
suite.stderr.on("data", (d) => (out += d));
const code = await new Promise((resolve) => suite.on("close", resolve));
cleanup();

// The suite's own summary (one line per scenario) and its verdict on the baseline.
const summary = out.slice(out.indexOf("=== SUMMARY ==="));
console.log(extra.includes("--verbose") ? out : summary.trim());
console.log(
  `\nconformance suite against quiver serve: exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(code ?? 1);
