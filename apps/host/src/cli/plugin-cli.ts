import { parseArgs } from "node:util";
import { CommandUsageError, type PluginCommand } from "@quiver/core";
import type { HostSettings } from "../config/host-settings.js";
import type { LoadedPlugin } from "../discovery/types.js";
import { type CommandSpec, GLOBAL_OPTIONS } from "./command.js";
import type { PluginCommandRow } from "./help.js";
import { createOutput, type Output } from "./output.js";
import { pluginCommandUsage, printPluginCommandHelp, printPluginHelp } from "./plugin-command-help.js";
import { EXIT } from "./usage-error.js";

const GLOBAL_WITH_VALUE = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, o]) => o.type === "string")
    .map(([n]) => `--${n}`),
);

/** The global options given anywhere in argv (unknown options are ignored here). */
export const lenientGlobalFlags = (argv: ReadonlyArray<string>): Record<string, unknown> =>
  parseArgs({
    args: [...argv],
    options: GLOBAL_OPTIONS as never,
    allowPositionals: true,
    allowNegative: true,
    strict: false,
  }).values;

/** The settings for the global flags in argv (imported on demand: help for host commands stays light). */
export const settingsFromArgv = async (
  argv: ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<HostSettings> => {
  const flags = lenientGlobalFlags(argv);
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const strs = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
  const { resolveSettings } = await import("../config/resolve-settings.js");
  return resolveSettings(
    {
      cwd: str(flags.cwd),
      config: str(flags.config),
      demo: typeof flags.demo === "boolean" ? flags.demo : undefined,
      principal: str(flags.principal),
      set: strs(flags.set),
      disable: strs(flags.disable),
      plugin: strs(flags.plugin),
    },
    env,
  );
};

/**
 * The commands of the installed, enabled plugins, for `quiver --help`; empty when the project's
 * settings cannot be read (the root help must always print).
 */
export const installedPluginCommands = async (
  argv: ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<PluginCommandRow[]> => {
  try {
    const settings = await settingsFromArgv(argv, env);
    const { discoverEnabled } = await import("../host/discover-enabled.js");
    const { enabled } = await discoverEnabled(settings);
    return enabled.flatMap(({ plugin }) =>
      (plugin.commands ?? []).map((c: PluginCommand) => ({
        plugin: plugin.id,
        name: c.name,
        summary: c.summary,
      })),
    );
  } catch {
    return [];
  }
};

/** The positions of the first two words of argv (values of global options skipped). */
const words = (argv: ReadonlyArray<string>): number[] => {
  const found: number[] = [];
  for (let i = 0; i < argv.length && found.length < 2; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if (a.startsWith("-")) {
      if (GLOBAL_WITH_VALUE.has(a)) i++;
      continue;
    }
    found.push(i);
  }
  return found;
};

const didYouMean = (closest: ReadonlyArray<string>) =>
  closest.length > 0 ? ` Did you mean ${closest.map((n) => `"${n}"`).join(" or ")}?` : "";

const toParseArgs = (cmd: PluginCommand) =>
  Object.fromEntries(Object.entries(cmd.options ?? {}).map(([name, o]) => [name, { type: o.type }]));

/** Runs a plugin command found by id and name: parses, checks, opens the plugin, runs, closes. */
const runCommand = async (
  loaded: LoadedPlugin,
  cmd: PluginCommand,
  rest: ReadonlyArray<string>,
  settings: HostSettings,
  out: Output,
): Promise<number> => {
  const plugin = loaded.plugin;
  const s = out.style;
  const usage = `usage: quiver ${pluginCommandUsage(plugin.id, cmd)}   (quiver ${plugin.id} ${cmd.name} --help)`;
  const usageError = (message: string, hint = usage) => {
    out.note(`${s.red("error:")} ${message}`);
    out.note(hint);
    return EXIT.usage;
  };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...rest],
      options: {
        ...GLOBAL_OPTIONS,
        ...toParseArgs(cmd),
        help: GLOBAL_OPTIONS.help,
        json: GLOBAL_OPTIONS.json,
      } as never,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (error) {
    return usageError((error as Error).message.replace(/\. To specify.*$/s, "."));
  }
  if (parsed.values.help) {
    printPluginCommandHelp(out, plugin.id, cmd);
    return EXIT.ok;
  }
  const flags: Record<string, string | boolean | undefined> = {};
  for (const [name, option] of Object.entries(cmd.options ?? {})) {
    const value = parsed.values[name];
    if (value !== undefined && typeof value !== option.type)
      return usageError(`--${name} is a ${option.type} option.`);
    flags[name] = value as string | boolean | undefined;
  }
  const missing = Object.entries(cmd.options ?? {})
    .filter(([name, o]) => o.required && flags[name] === undefined)
    .map(([name]) => `--${name}`);
  if (missing.length > 0)
    return usageError(`quiver ${plugin.id} ${cmd.name} needs ${missing.join(" and ")}.`);
  const args = parsed.positionals;
  const min = cmd.positionals?.min ?? 0;
  const max = cmd.positionals ? cmd.positionals.max : 0;
  if (args.length < min || (max !== undefined && args.length > max)) {
    const range = max === min ? `${min}` : max === undefined ? `${min} or more` : `${min}-${max}`;
    return usageError(
      `quiver ${plugin.id} ${cmd.name} takes ${range} argument${min === 1 && max === 1 ? "" : "s"} (${cmd.positionals?.names || "none"}), got ${args.length}${args.length > 0 ? `: ${args.join(" ")}` : ""}.`,
    );
  }

  // Only this plugin is registered, with the settings serve would give it: the plugins were discovered
  // once already, and the others (their aliases, stores, demo data) have no part in its command.
  const [{ createCatalog }, { settingsFor }, { pluginOptions }] = await Promise.all([
    import("@quiver/core"),
    import("../host/discover-enabled.js"),
    import("../host/plugin-options.js"),
  ]);
  const catalog = createCatalog({ env: settings.env, policies: settings.policies });
  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    out.note(s.yellow("interrupted: stopping (Ctrl-C again to quit at once)"));
    controller.abort(new Error("Interrupted (Ctrl-C)."));
  };
  process.on("SIGINT", onInterrupt);
  try {
    let info: ReturnType<typeof catalog.register>;
    try {
      info = catalog.register(plugin, pluginOptions(plugin, settingsFor(settings, loaded), settings.env));
    } catch (error) {
      out.note(
        `${s.red("error:")} the ${plugin.id} plugin could not be registered: ${(error as Error).message}`,
      );
      return EXIT.failed;
    }
    if (info.status === "unconfigured") {
      return usageError(
        `${info.message ?? `the ${plugin.id} plugin is not configured.`}`,
        info.missing.length > 0 ? `Set ${info.missing.join(", ")}.` : usage,
      );
    }
    const { config, resources } = await catalog.open(plugin.id);
    const { pluginCommandContext } = await import("./plugin-command-context.js");
    const { ctx, finish } = pluginCommandContext({
      label: `${plugin.id} ${cmd.name}`,
      args,
      flags,
      config,
      resources,
      cwd: settings.cwd,
      env: settings.env,
      out,
      signal: controller.signal,
    });
    try {
      return await cmd.run(ctx);
    } finally {
      finish();
    }
  } catch (error) {
    // isInstance, not instanceof: the plugin may bring its own copy of @quiver/core.
    if (CommandUsageError.isInstance(error)) return usageError(error.message, error.hint ?? usage);
    out.note(`${s.red("error:")} ${error instanceof Error ? error.message : String(error)}`);
    if (parsed.values.verbose && error instanceof Error && error.stack) out.note(s.dim(error.stack));
    return EXIT.failed;
  } finally {
    process.off("SIGINT", onInterrupt);
    await catalog.close();
  }
};

/**
 * `quiver <plugin-id> [<command>] …`: the word is not one of the host's commands, so the installed
 * plugins are discovered and the plugin with that id answers: its command list (`--help`), or the
 * command run with its options. An unknown word gets a "did you mean" and exit 2.
 *
 * @example
 * process.exitCode = await runPluginCli(["notes", "add", "a.txt", "--tag", "x"], COMMANDS, { env: process.env, out })
 */
export const runPluginCli = async (
  argv: ReadonlyArray<string>,
  commands: ReadonlyArray<CommandSpec>,
  io: { readonly env: Readonly<Record<string, string | undefined>>; readonly out: Output },
): Promise<number> => {
  const { out, env } = io;
  const s = out.style;
  const settings = await settingsFromArgv(argv, env);
  const [idAt, nameAt] = words(argv);
  const id = argv[idAt!]!;
  const { discoverEnabled } = await import("../host/discover-enabled.js");
  const { closestMatches } = await import("@quiver/core");
  const found = await discoverEnabled(settings);
  const loaded = found.enabled.find((p) => p.plugin.id === id);
  const help = argv.includes("--help") || argv.includes("-h");
  if (!loaded || (loaded.plugin.commands ?? []).length === 0) {
    if (found.disabled.includes(id)) {
      out.note(
        `${s.red("error:")} the ${id} plugin is disabled in the config; enable it to use its commands.`,
      );
      return EXIT.usage;
    }
    if (loaded) {
      out.note(`${s.red("error:")} the ${id} plugin has no commands. Run "quiver --help" for the commands.`);
      return EXIT.usage;
    }
    const names = [
      ...commands.map((c) => c.name),
      ...found.enabled.filter((p) => (p.plugin.commands ?? []).length > 0).map((p) => p.plugin.id),
    ];
    out.note(
      `${s.red("error:")} unknown command "${id}".${didYouMean(closestMatches(names, id, { limit: 3, maxDistance: 2 }))} Run "quiver --help" for the commands.`,
    );
    return EXIT.usage;
  }
  const plugin = loaded.plugin;
  const pluginCommands: ReadonlyArray<PluginCommand> = plugin.commands ?? [];
  if (nameAt === undefined) {
    if (help) {
      printPluginHelp(out, plugin);
      return EXIT.ok;
    }
    out.note(`${s.red("error:")} "quiver ${id}" needs a command.`);
    printPluginHelp(createOutput({ stdout: process.stderr, env }), plugin);
    return EXIT.usage;
  }
  const name = argv[nameAt]!;
  const cmd = pluginCommands.find((c) => c.name === name);
  if (!cmd) {
    const names = pluginCommands.map((c) => c.name);
    out.note(
      `${s.red("error:")} the ${id} plugin has no command "${name}".${didYouMean(closestMatches(names, name, { limit: 3, maxDistance: 2 }))} Run "quiver ${id} --help" for its commands.`,
    );
    return EXIT.usage;
  }
  return runCommand(
    loaded,
    cmd,
    argv.filter((_, i) => i !== idAt && i !== nameAt),
    settings,
    out,
  );
};
