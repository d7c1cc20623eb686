import { inspect } from "node:util";
import * as Cause from "effect/Cause";
import type * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import type * as LogLevel from "effect/LogLevel";

/** How bad a runtime log line is. */
export type RuntimeLogLevel = "error" | "warning" | "info" | "debug";

/**
 * Where a catalog's runtime writes its own lines (a store that went down and came back, Effect's
 * `Effect.log*` inside a tool): `(level, message)`, one line of text each.
 */
export type RuntimeLog = (level: RuntimeLogLevel, message: string) => void;

/**
 * The default: standard error, never standard output, where an MCP stdio server speaks its protocol
 * (Effect's own default logger writes to `console.log`).
 */
export const logToStderr: RuntimeLog = (level, message) => {
  process.stderr.write(`${level}: ${message}\n`);
};

const LEVELS: Readonly<Record<LogLevel.LogLevel, RuntimeLogLevel>> = {
  All: "debug",
  Trace: "debug",
  Debug: "debug",
  Info: "info",
  Warn: "warning",
  Error: "error",
  Fatal: "error",
  None: "debug",
};

/** One logged value as text: an Error by its message (its stack is for debuggers, not log lines). */
const text = (value: unknown): string =>
  typeof value === "string"
    ? value
    : value instanceof Error
      ? value.message
      : inspect(value, { breakLength: Number.POSITIVE_INFINITY, depth: 4 });

/**
 * The layer that sends every `Effect.log*` of a runtime to `log` instead of Effect's default logger.
 * Written here because Effect's loggers format for a console; a host wants the message and its level.
 */
export const runtimeLogLayer = (log: RuntimeLog): Layer.Layer<never> =>
  Logger.layer([
    Logger.make(({ logLevel, message, cause }) => {
      const parts = Array.isArray(message) ? message : [message];
      const line = parts.map(text).join(" ");
      const reasons = cause.reasons.length > 0 ? ` (${text(Cause.squash(cause))})` : "";
      try {
        log(LEVELS[logLevel], `${line}${reasons}`);
      } catch {
        // A log that fails loses its line, never the call that logged it.
      }
    }),
  ]);
