import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The host package's folder: the nearest one above this module with a package.json (from src/http or a dist chunk). */
const packageDir = (from: string): string => {
  let dir = from;
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
};

/** Where `pnpm build` puts the console (Vite's output): apps/host/dist/console, from src or dist. */
export const CONSOLE_DIR = join(packageDir(dirname(fileURLToPath(import.meta.url))), "dist", "console");

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
};

/**
 * The page's Content-Security-Policy: its own scripts and styles only, requests to this origin only,
 * no frames. Inline styles are allowed because the chart library sizes its canvases with them.
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Sends one file of the built console (`index.html` for the page, `assets/*` for its hashed
 * scripts and styles), or answers false when there is no such file. The files hold no data: what
 * the page shows comes from the API, behind the same bearer tokens.
 *
 * @example
 * if (!(await sendConsoleFile(res, "index.html"))) res.writeHead(404).end()
 */
export const sendConsoleFile = async (
  res: ServerResponse,
  file: string,
  dir: string = CONSOLE_DIR,
): Promise<boolean> => {
  const path = normalize(join(dir, file));
  if (!path.startsWith(normalize(dir).replace(/[\\/]?$/, sep)) || !existsSync(path)) return false;
  const type = TYPES[extname(path)];
  if (!type) return false;
  const body = await readFile(path);
  const hashed = file.startsWith("assets/");
  res.writeHead(200, {
    "content-type": type,
    "content-length": body.length,
    "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    ...(type.startsWith("text/html") ? { "content-security-policy": CSP, "x-frame-options": "DENY" } : {}),
  });
  res.end(body);
  return true;
};
