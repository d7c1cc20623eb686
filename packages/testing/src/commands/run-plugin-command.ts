import type { AnyPlugin, CatalogOptions, CommandContext } from "@quiver/core";
import { createCatalog } from "@quiver/core";

/** How {@link runPluginCommand} calls a plugin command. */
export interface RunPluginCommandOptions {
  /** Positional arguments, in order. */
  readonly args?: ReadonlyArray<string>;
  /** Parsed options, as the host would pass them. */
  readonly flags?: Readonly<Record<string, string | boolean | undefined>>;
  /** Options the plugin is registered with (merged over its defaults and the environment). */
  readonly options?: Readonly<Record<string, unknown>>;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Run in JSON mode (`--json`). */
  readonly json?: boolean;
  readonly signal?: AbortSignal;
  /** Catalog options (an injected HTTP client, say). */
  readonly catalog?: CatalogOptions;
}

/** What a command printed and answered. */
export interface PluginCommandRun {
  readonly exitCode: number;
  /** Lines printed for people (`print`). */
  readonly lines: ReadonlyArray<string>;
  /** Values printed with `printJson`. */
  readonly json: ReadonlyArray<unknown>;
  /** Warnings (`warn`). */
  readonly warnings: ReadonlyArray<string>;
  /** Progress reports, in order. */
  readonly progress: ReadonlyArray<{
    readonly done: number;
    readonly total: number | undefined;
    readonly label?: string;
  }>;
}

/**
 * Runs one of a plugin's commands the way the host does (settings resolved, `setup` run, resources
 * closed afterwards) and records what it printed, so a plugin tests its commands without a host.
 * A `CommandUsageError` or any other error rejects, as it reaches the host.
 *
 * @example
 * const run = await runPluginCommand(createRagPlugin(), "index", { args: [folder], options: { indexPath } });
 * expect(run.exitCode).toBe(0);
 */
export const runPluginCommand = async (
  plugin: AnyPlugin,
  name: string,
  options: RunPluginCommandOptions = {},
): Promise<PluginCommandRun> => {
  const command = plugin.commands?.find((c) => c.name === name);
  if (command === undefined) {
    const names = (plugin.commands ?? []).map((c) => c.name).join(", ") || "none";
    throw new Error(`The ${plugin.id} plugin has no command "${name}" (it has: ${names}).`);
  }
  const env = options.env ?? {};
  const catalog = createCatalog({ env, ...options.catalog });
  const lines: string[] = [];
  const json: unknown[] = [];
  const warnings: string[] = [];
  const progress: Array<{ done: number; total: number | undefined; label?: string }> = [];
  try {
    catalog.register(plugin, options.options);
    const { config, resources } = await catalog.open(plugin.id);
    const ctx: CommandContext<unknown, unknown> = {
      args: options.args ?? [],
      flags: options.flags ?? {},
      config,
      resources,
      cwd: options.cwd ?? process.cwd(),
      env,
      json: options.json ?? false,
      print: (line) => {
        if (!options.json) lines.push(line);
      },
      printJson: (value) => {
        json.push(value);
      },
      warn: (line) => {
        warnings.push(line);
      },
      progress: (done, total, label) => {
        progress.push(label === undefined ? { done, total } : { done, total, label });
      },
      signal: options.signal ?? new AbortController().signal,
    };
    const exitCode = await command.run(ctx);
    return { exitCode, lines, json, warnings, progress };
  } finally {
    await catalog.close();
  }
};
