import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { HOST_DIR } from "./helpers.js";

/** Debian's chromium (override with CHROMIUM_PATH); playwright-core drives it, it downloads no browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Where the browser tests keep their screenshots (gitignored). */
export const ARTIFACTS = join(HOST_DIR, ".artifacts", "console");

/**
 * Why the browser tests cannot run here, or undefined when they can. On CI (CI=true) a missing
 * browser is a failure, not a skip: .ci/run installs it (scripts/browser.sh).
 */
export const browserMissing = (): string | undefined => {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} is absent: install it with \`apt-get install -y chromium\` (or bash scripts/browser.sh)`;
  if (process.env.CI === "true") throw new Error(`browser tests need chromium on CI: ${reason}`);
  return reason;
};

/**
 * A fresh headless chromium with its own profile folder. The flags keep it off the network it would
 * otherwise call (updates, sync, QUIC probes), where it stalls on a closed network. `webgl` renders
 * WebGL in software (SwiftShader) instead of turning the GPU off.
 */
export const launchBrowser = async (
  options: { readonly webgl?: boolean } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> => {
  const profile = mkdtempSync(join(tmpdir(), "quiver-chromium-"));
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      ...(options.webgl
        ? ["--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
        : ["--disable-gpu"]),
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
};
