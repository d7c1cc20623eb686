import { parseArgs } from "node:util";
import pkg from "../../package.json" with { type: "json" };
import { ConfigError } from "../config/config-error.js";
import type { HostSettings } from "../config/host-settings.js";
import type { PluginProblem } from "../discovery/types.js";
import type { Host } from "../host/create-host.js";
import { type CommandContext, type CommandSpec, GLOBAL_OPTIONS } from "./command.js";
import { createOutput, type Output } from "./output.js";
import { EXIT, UsageError } from "./usage-error.js";

const GLOBAL_WITH_VALUE = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, o]) => o.type === "string")
    .map(([n]) => `--${n}`),
);

/** Finds the command words in argv (global options may come before them). */
const findCommand = (argv: ReadonlyArray<string>, commands: ReadonlyArray<CommandSpec>) => {
  const words: { word: string; index: number }[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if (a.startsWith("-")) {
      if (GLOBAL_WITH_VALUE.has(a)) i++;
      if (words.length > 0) break;
      continue;
    }
    words.push({ word: a, index: i });
    if (words.length === 1 && !commands.some((c) => c.name.startsWith(`${a} `))) break;
  }
  const two = words.length === 2 ? `${words[0]!.word} ${words[1]!.word}` : undefined;
  const cmd =
    (two && commands.find((c) => c.name === two)) || commands.find((c) => c.name === words[0]?.word);
  if (!cmd) return { cmd: undefined, first: words[0]?.word, rest: [...argv] };
  const used = cmd.name.includes(" ") ? words.slice(0, 2) : words.slice(0, 1);
  const rest = argv.filter((_, i) => !used.some((w) => w.index === i));
  return { cmd, first: words[0]?.word, rest };
};

const printProblems = (out: Output, problems: ReadonlyArray<PluginProblem>, verbose: boolean) => {
  const s = out.style;
  for (const p of problems) {
    out.note(`${s.yellow("skipped")} ${s.bold(p.package)}: ${p.message}`);
    out.note(`  ${s.dim("fix:")} ${p.fix}`);
    if (verbose && p.detail)
      out.note(
        s.dim(
          p.detail
            .split("\n")
            .map((l) => `    ${l}`)
            .join("\n"),
        ),
      );
  }
};

/** What `runCli` needs from the world (tests pass their own). */
export interface CliIo {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stdout?: NodeJS.WriteStream;
  readonly stderr?: NodeJS.WriteStream;
}

/**
 * Runs the quiver command line: finds the command, parses its options strictly (node:util
 * parseArgs), prints help for `--help`, and turns errors into messages and exit codes
 * (0 done, 1 failed, 2 usage or config error). Returns the exit code.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), COMMANDS)
 */
export const runCli = async (
  argv: ReadonlyArray<string>,
  commands: ReadonlyArray<CommandSpec>,
  io: CliIo = {},
): Promise<number> => {
  const env = io.env ?? process.env;
  const jsonWanted = argv.includes("--json");
  // `--json` promises one JSON document on stdout: whatever else writes there (a plugin's
  // console.log while it loads or runs) goes to stderr.
  const stdout =
    io.stdout ?? (jsonWanted ? (await import("@quiver/mcp/stdout")).reserveStdout().channel : undefined);
  const out = createOutput({
    json: jsonWanted,
    ...(stdout ? { stdout } : {}),
    ...(io.stderr ? { stderr: io.stderr } : {}),
    env,
  });
  const s = out.style;
  const { cmd, first, rest } = findCommand(argv, commands);
  if (!cmd) {
    if (argv.includes("--version") || argv.includes("-v") || first === "version") {
      out.print(pkg.version);
      return EXIT.ok;
    }
    const { installedPluginCommands, runPluginCli } = await import("./plugin-cli.js");
    if (first === undefined || first === "help") {
      const { printRootHelp } = await import("./help.js");
      printRootHelp(out, commands, pkg.version, await installedPluginCommands(argv, env));
      return first === undefined && !argv.includes("--help") && !argv.includes("-h") ? EXIT.usage : EXIT.ok;
    }
    // Not a host command: the installed plugins' commands (`quiver <plugin> <command>`).
    try {
      return await runPluginCli(argv, commands, { env, out });
    } catch (error) {
      if (error instanceof ConfigError) {
        out.note(`${s.red("config error:")} ${error.message}`);
        return EXIT.usage;
      }
      out.note(`${s.red("error:")} ${(error as Error).message}`);
      return EXIT.failed;
    }
  }

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...cmd.options } as never,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (error) {
    out.note(`${s.red("error:")} ${(error as Error).message.replace(/\. To specify.*$/s, ".")}`);
    out.note(`usage: quiver ${cmd.usage}   (quiver ${cmd.name} --help)`);
    return EXIT.usage;
  }
  const flags = parsed.values as CommandContext["flags"];
  if (flags.help) {
    // Loaded on demand: running a command never needs the help printer.
    const { printCommandHelp } = await import("./help.js");
    printCommandHelp(out, cmd);
    return EXIT.ok;
  }
  const args = parsed.positionals;
  const pos = cmd.positionals ?? { min: 0, max: 0, names: "" };
  if (args.length < pos.min || (pos.max !== undefined && args.length > pos.max)) {
    out.note(
      `${s.red("error:")} quiver ${cmd.name} takes ${pos.max === pos.min ? pos.min : `${pos.min}${pos.max === undefined ? " or more" : `-${pos.max}`}`} argument${pos.min === 1 && pos.max === 1 ? "" : "s"} (${pos.names || "none"}), got ${args.length}${args.length > 0 ? `: ${args.join(" ")}` : ""}.`,
    );
    out.note(`usage: quiver ${cmd.usage}   (quiver ${cmd.name} --help)`);
    return EXIT.usage;
  }

  let settingsPromise: Promise<HostSettings> | undefined;
  // Loaded on demand, so --help and usage errors never pay for @quiver/core and the plugins.
  const settings = () => {
    settingsPromise ??= import("../config/resolve-settings.js").then(({ resolveSettings }) =>
      resolveSettings(
        {
          cwd: flags.cwd as string | undefined,
          config: flags.config as string | undefined,
          port: flags.port as string | undefined,
          host: flags.host as string | undefined,
          demo: flags.demo as boolean | undefined,
          principal: flags.principal as string | undefined,
          set: flags.set as string[] | undefined,
          disable: flags.disable as string[] | undefined,
          plugin: flags.plugin as string[] | undefined,
          record: flags.record as string | undefined,
          replay: flags.replay as string | undefined,
          replayOrRecord: flags["replay-or-record"] as string | undefined,
          replayTiming: flags["replay-timing"] as string | undefined,
          maxSessionsPerPrincipal: flags["max-sessions-per-principal"] as string | undefined,
          sessionIdleTimeout: flags["session-idle-timeout"] as string | undefined,
          profile: flags.profile as string | undefined,
          aliasSet: flags["alias-set"] as string[] | undefined,
        },
        env,
      ),
    );
    return settingsPromise;
  };
  const withHost = async <T>(
    use: (host: Host) => Promise<T>,
    opts: { readonly quiet?: boolean; readonly demo?: boolean } = {},
  ) => {
    const resolved = await settings();
    for (const w of resolved.warnings) out.note(`${s.yellow("warning:")} ${w}`);
    const { createHost } = await import("../host/create-host.js");
    const host = await createHost(resolved, {
      log: (line) => out.note(s.dim(line)),
      ...(opts.demo !== undefined ? { demo: opts.demo } : {}),
    });
    if (!opts.quiet) printProblems(out, host.problems, flags.verbose === true);
    try {
      return await use(host);
    } finally {
      await host.close();
    }
  };

  try {
    return await cmd.run({ args, flags, out, env, settings, withHost });
  } catch (error) {
    if (error instanceof UsageError) {
      out.note(`${s.red("error:")} ${error.message}`);
      out.note(error.hint ?? `usage: quiver ${cmd.usage}   (quiver ${cmd.name} --help)`);
      return EXIT.usage;
    }
    if (error instanceof ConfigError) {
      out.note(`${s.red("config error:")} ${error.message}`);
      return EXIT.usage;
    }
    out.note(`${s.red("error:")} ${(error as Error).message}`);
    if (flags.verbose && error instanceof Error && error.stack) out.note(s.dim(error.stack));
    return EXIT.failed;
  }
};
