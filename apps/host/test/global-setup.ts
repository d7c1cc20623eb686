import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HOST_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");

const newest = (dir: string): number => {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};

const build = (dir: string) =>
  execFileSync(
    process.execPath,
    [join(HOST_DIR, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
    {
      cwd: dir,
      stdio: "inherit",
    },
  );

/** Builds the web console (Vite) into dist/console: the console and browser tests serve it. */
const buildConsole = () =>
  execFileSync(
    process.execPath,
    [join(HOST_DIR, "node_modules/vite/bin/vite.js"), "build", "--config", "console/vite.config.ts"],
    // NODE_ENV is "test" under vitest: Vite would keep development-only code in the bundle.
    { cwd: HOST_DIR, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } },
  );

/**
 * The CLI tests run the built `quiver`: rebuild it (and @quiver/mcp, which it imports) when stale;
 * likewise the console's page when its source is newer than its build.
 */
export default function setup() {
  const mcp = join(HOST_DIR, "..", "..", "packages", "mcp");
  if (existsSync(join(mcp, "src")) && !existsSync(join(mcp, "dist", "index.js"))) build(mcp);
  const cli = join(HOST_DIR, "dist", "cli.js");
  if (!existsSync(cli) || statSync(cli).mtimeMs < newest(join(HOST_DIR, "src"))) build(HOST_DIR);
  const page = join(HOST_DIR, "dist", "console", "index.html");
  if (!existsSync(page) || statSync(page).mtimeMs < newest(join(HOST_DIR, "console"))) buildConsole();
}
