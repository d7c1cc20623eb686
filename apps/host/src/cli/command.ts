import type { HostSettings } from "../config/host-settings.js";
import type { Host } from "../host/create-host.js";
import type { Output } from "./output.js";

/** One option of a command (node:util parseArgs shape plus help text). */
export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
  /** Placeholder in help, e.g. "<json>". */
  readonly value?: string;
  readonly description: string;
}

/** What a command receives. */
export interface CommandContext {
  /** Positional arguments after the command words. */
  readonly args: ReadonlyArray<string>;
  /** Parsed options (global and the command's own). */
  readonly flags: Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;
  readonly out: Output;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The settings (flags > env > config file), resolved once. */
  readonly settings: () => Promise<HostSettings>;
  /** Builds the host (discovers plugins), prints skipped plugins on stderr, closes it after `use`. */
  readonly withHost: <T>(
    use: (host: Host) => Promise<T>,
    options?: { readonly quiet?: boolean; readonly demo?: boolean },
  ) => Promise<T>;
}

/** A command of the quiver CLI. */
export interface CommandSpec {
  /** The command words: "list", "describe". */
  readonly name: string;
  readonly summary: string;
  /** Usage after "quiver ", e.g. "call <tool> --input '<json>'". */
  readonly usage: string;
  readonly description?: string;
  readonly options?: Readonly<Record<string, OptionSpec>>;
  readonly positionals?: { readonly min: number; readonly max?: number; readonly names: string };
  readonly examples?: ReadonlyArray<string>;
  /** Returns the exit code. */
  readonly run: (ctx: CommandContext) => Promise<number>;
}

/** `--record`, `--replay`, `--replay-or-record`, `--replay-timing`: the commands that call tools take them. */
export const CASSETTE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  record: {
    type: "string",
    value: "<dir>",
    description: "Record every tool call's upstream exchanges into <dir> (one cassette per call, no secrets)",
  },
  replay: {
    type: "string",
    value: "<dir>",
    description: "Answer every tool call from its cassette in <dir>, with no network (missing: unavailable)",
  },
  "replay-or-record": {
    type: "string",
    value: "<dir>",
    description: "Replay calls that have a cassette in <dir>, record the others",
  },
  "replay-timing": {
    type: "string",
    value: "instant|recorded",
    description: "Replay at once (default) or taking as long as the recorded exchanges did",
  },
};

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  json: { type: "boolean", description: "Print JSON for scripts instead of readable text" },
  config: {
    type: "string",
    value: "<file>",
    description: "Config file (default: quiver.config.{json,yaml} here; env QUIVER_CONFIG)",
  },
  cwd: {
    type: "string",
    value: "<dir>",
    description: "Project folder whose plugins are discovered (default: the current folder)",
  },
  set: {
    type: "string",
    multiple: true,
    value: "<plugin.key=value>",
    description: "Set a plugin option, e.g. --set weather.baseUrl=http://127.0.0.1:8080 (repeatable)",
  },
  disable: {
    type: "string",
    multiple: true,
    value: "<plugin>",
    description: "Leave a plugin out (id or package name; repeatable)",
  },
  plugin: {
    type: "string",
    multiple: true,
    value: "<package|path>",
    description: "Load another plugin package or module (repeatable)",
  },
  principal: {
    type: "string",
    value: "<name>",
    description: "Who the calls are made as (env QUIVER_PRINCIPAL)",
  },
  demo: {
    type: "boolean",
    description: "Demo mode: plugins fill their stores from the demo data they ship (--no-demo to turn off)",
  },
  verbose: { type: "boolean", description: "Print stacks of plugins that failed to load" },
  help: { type: "boolean", short: "h", description: "Show help" },
};
