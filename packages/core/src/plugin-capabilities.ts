import type * as Clock from "effect/Clock";
import type { HttpClient } from "./http/index.js";

/**
 * What a plugin's `setup` receives: its validated settings and the catalog's world. Register clean-up
 * with `onClose`; it runs (last registered first) when the plugin is unregistered or the catalog closes.
 */
export interface SetupContext<Config> {
  readonly config: Config;
  /** The catalog's shared HTTP client. */
  readonly http: HttpClient;
  /** The environment the catalog reads settings from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted when the catalog closes while setup is still running. */
  readonly signal: AbortSignal;
  /** Registers a finalizer: closes what setup opened (a file, a connection, a child process). */
  readonly onClose: (finalizer: () => Promise<void> | void) => void;
  /** The catalog's clock, the one its tools get as `ctx.clock` (for caches' lifetimes, retry waits). */
  readonly clock: Clock.Clock;
}

/**
 * Opens what a plugin's tools share (an index, a connection, a client) once per registration. The
 * value it returns reaches every tool as `ctx.resources`, every command and the health check. It
 * runs at the first call (or the first command or health check); a failed setup is not kept, so the
 * next call tries again.
 */
export type PluginSetup<Config, Resources> = (ctx: SetupContext<Config>) => Promise<Resources> | Resources;

/** An option of a plugin command: `--name <value>` or a `--flag`. */
export interface PluginCommandOption {
  readonly type: "string" | "boolean";
  /** Placeholder shown in help for a string option, e.g. `<principal>`. */
  readonly value?: string;
  readonly description: string;
  /** The command refuses to run without it (the host says so before `run`). */
  readonly required?: boolean;
}

/** What a plugin command's `run` receives. */
export interface CommandContext<Config, Resources> {
  /** Positional arguments, in order. */
  readonly args: ReadonlyArray<string>;
  /** Parsed options: strings, booleans, or undefined when not given. */
  readonly flags: Readonly<Record<string, string | boolean | undefined>>;
  /** The plugin's validated settings (flags like `--set` already applied by the host). */
  readonly config: Config;
  /** What the plugin's `setup` opened (undefined without a setup). */
  readonly resources: Resources;
  /** The folder relative paths are resolved from. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** True with `--json`: print one JSON document with `printJson` and nothing else on stdout. */
  readonly json: boolean;
  /** Prints a line for people (stdout); ignored in JSON mode. */
  readonly print: (line: string) => void;
  /** Prints the command's JSON result (stdout). */
  readonly printJson: (value: unknown) => void;
  /** Prints a warning or a note (stderr). */
  readonly warn: (line: string) => void;
  /** Reports progress of long work (a bar on a terminal, plain lines otherwise, nothing in JSON mode). */
  readonly progress: (done: number, total: number | undefined, label?: string) => void;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
}

/**
 * A command the host mounts as `quiver <plugin-id> <name>`, with its own options and `--help`.
 * `run` answers the exit code: 0 (done) or 1 (ran, but did nothing useful); throw a
 * `CommandUsageError` for a wrong call (exit 2) and anything else for a failure (exit 1).
 */
export interface PluginCommand<Config = unknown, Resources = unknown> {
  /** `^[a-z][a-z0-9-]*$`: the word after the plugin id. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** More lines for `--help`. */
  readonly description?: string;
  /** Positional arguments: how many, and how help shows them (`<files…>`). */
  readonly positionals?: { readonly min?: number; readonly max?: number; readonly names: string };
  readonly options?: Readonly<Record<string, PluginCommandOption>>;
  /** Example command lines, starting with `quiver`; `--help` shows them. */
  readonly examples?: ReadonlyArray<string>;
  readonly run: (ctx: CommandContext<Config, Resources>) => Promise<number> | number;
}

// A registered symbol, so the mark survives two copies of @quiver/core in one process.
const usageMarker = Symbol.for("@quiver/core/CommandUsageError");

/** A wrong call of a plugin command: the host prints the message (and the hint) and exits 2. */
export class CommandUsageError extends Error {
  override readonly name = "CommandUsageError";
  readonly [usageMarker] = true;
  /**
   * True for a CommandUsageError from any copy of @quiver/core (a plugin may bring its own), and
   * false for any other error, whatever its `name`.
   */
  static isInstance(u: unknown): u is CommandUsageError {
    return typeof u === "object" && u !== null && (u as Record<symbol, unknown>)[usageMarker] === true;
  }
  constructor(
    message: string,
    /** What to do instead (one line). */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A reusable build in the demo cache, see {@link DemoContext.cached}. */
export interface DemoCacheEntry {
  /** Where to build (a file or folder path inside the plugin's demo cache folder). */
  readonly path: string;
  /** True when `path` was built from the same inputs before: reuse it. */
  readonly fresh: boolean;
  /** Records that `path` is now built from these inputs. */
  readonly markFresh: () => Promise<void>;
}

/** What a plugin's demo step receives. */
export interface DemoContext {
  /** A folder of this plugin's own for demo builds (created). */
  readonly cacheDir: string;
  /** The principal demo calls are made as (the host's `principal` setting, default `demo`). */
  readonly principal: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * A build named `name` in the cache folder, fresh when the tag (put the plugin version in it) and
   * the input files' sizes and times are those of the last `markFresh`.
   */
  readonly cached: (
    name: string,
    inputs: { readonly tag: string; readonly files: ReadonlyArray<string> },
  ) => DemoCacheEntry;
}

/** What a demo step built: the options to register the plugin with, and one line for the log. */
export interface DemoResult {
  readonly options: Readonly<Record<string, unknown>>;
  readonly message: string;
}

/**
 * Demo mode: fills the plugin's store from data the plugin ships, so a new user can ask real
 * questions at once. The host runs it when demo mode is on and none of `skipWhenSet` is set.
 */
export interface PluginDemo {
  /** Environment variables that mean the user chose their own store: no demo then. */
  readonly skipWhenSet?: ReadonlyArray<string>;
  /** The data it reads (files or folders), for `quiver doctor` and docs. */
  readonly data?: ReadonlyArray<string>;
  readonly seed: (ctx: DemoContext) => Promise<DemoResult>;
}
