import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DemoContext } from "./plugin-capabilities.js";

/** What {@link createDemoContext} needs: the plugin's own cache folder and the demo principal. */
export interface DemoContextOptions {
  /** A folder of the plugin's own for demo builds; created when missing. */
  readonly cacheDir: string;
  /** The principal demo calls are made as. Default `demo`. */
  readonly principal?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * A fingerprint of a demo build's inputs (a tag such as `rag@0.1.0` and the files' sizes and
 * modification times), so a build is reused while nothing changed and redone when the data or the
 * plugin did.
 */
export const demoFingerprint = (tag: string, files: ReadonlyArray<string>): string =>
  [
    tag,
    ...files.map((f) => {
      if (!existsSync(f)) return `${f}:-`;
      const s = statSync(f);
      return `${f}:${s.size}:${Math.round(s.mtimeMs)}`;
    }),
  ].join("|");

/**
 * The context a plugin's demo step runs in: the host builds one per plugin in demo mode, and tests
 * build one over a temporary folder. A build is fresh when `<path>.stamp` holds the fingerprint of
 * the same inputs.
 *
 * @example
 * const ctx = await createDemoContext({ cacheDir: join(tmp, "rag") });
 * const result = await plugin.demo!.seed(ctx);
 */
export const createDemoContext = async (options: DemoContextOptions): Promise<DemoContext> => {
  await mkdir(options.cacheDir, { recursive: true });
  const cached: DemoContext["cached"] = (name, inputs) => {
    const path = join(options.cacheDir, name);
    const stamp = `${path}.stamp`;
    const key = demoFingerprint(inputs.tag, inputs.files);
    const fresh = existsSync(path) && existsSync(stamp) && readFileSync(stamp, "utf8") === key;
    return { path, fresh, markFresh: () => writeFile(stamp, key) };
  };
  return {
    cacheDir: options.cacheDir,
    principal: options.principal ?? "demo",
    env: options.env ?? {},
    cached,
  };
};
