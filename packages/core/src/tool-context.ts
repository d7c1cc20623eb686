import type * as Clock from "effect/Clock";
import type { Caller, CallInfo } from "./caller.js";
import type { ToolResult } from "./envelope.js";
import type { HttpClient } from "./http/index.js";

/** Progress of a long call, forwarded to MCP progress notifications and CLI progress bars. */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Severity of a log line a tool sends its caller (the MCP / syslog levels). */
export type ToolLogLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** One log line of a running tool, for its caller (an MCP client gets `notifications/message`). */
export interface ToolLogEntry {
  readonly level: ToolLogLevel;
  readonly message: string;
  /** Structured detail; never a secret. */
  readonly data?: unknown;
}

/**
 * Requests a tool may make of the caller's client, present only when the client offers them (an MCP
 * client that declared `sampling` or `elicitation`). Params and results are MCP's own
 * (`sampling/createMessage`, `elicitation/create`); a rejected promise means the client refused or failed.
 */
export interface ClientRequests {
  /** Asks the client's model for a completion (MCP `sampling/createMessage` params). */
  readonly sample?: (params: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;
  /** Asks the user for input through the client (MCP `elicitation/create` params). */
  readonly elicit?: (params: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;
}

/**
 * What a tool running as a task may do with its task (`ctx.task`, present only then): store where
 * another replica resumes it when this one stops (an upstream job's id), and read that point back
 * when it is such a takeover. A point is small JSON; it is kept with the task, never shown to callers.
 *
 * @example
 * const startOrResume = async (ctx: ToolContext, submit: () => Promise<string>) => {
 *   const saved = ctx.task?.resumeFrom?.jobId;
 *   const jobId = typeof saved === "string" ? saved : await submit();
 *   await ctx.task?.resume({ jobId }); // stored once it resolves: a takeover polls, never submits again
 *   return jobId;
 * };
 */
export interface ToolTask {
  /** The task's id. */
  readonly id: string;
  /** The point a previous run stored with `resume`, when this run takes the task over; else undefined. */
  readonly resumeFrom?: Readonly<Record<string, unknown>>;
  /** Stores where a takeover resumes (replaces any earlier point); resolves once it is stored. */
  readonly resume: (point: Readonly<Record<string, unknown>>) => Promise<void>;
  /**
   * True once this run handed the task over (it lost its lease to another replica, which resumes
   * from the stored point): when the signal aborts then, leave the upstream job running.
   */
  readonly handedOver: () => boolean;
}

/** What a tool's `run` receives besides its input. */
export interface ToolContext<Config = unknown, Resources = unknown> {
  /** Which call this is: id, tool, plugin and attempt. */
  readonly call: CallInfo;
  /** Who is calling: principal, groups, OAuth client and scopes, session. */
  readonly caller: Caller;
  /** Aborted on timeout, cancellation or shutdown: pass it to every upstream request. */
  readonly signal: AbortSignal;
  /** The plugin's validated configuration (secrets as Redacted). */
  readonly config: Config;
  /** What the plugin's `setup` opened for this registration (undefined without a setup). */
  readonly resources: Resources;
  /** The shared HTTP client (pooled, size-limited, status mapped to error kinds, secrets redacted). */
  readonly http: HttpClient;
  /** Reports progress of a long call. */
  readonly progress: (progress: ToolProgress) => void;
  /** Sends a log line to the caller (MCP `notifications/message`, at the level the client set); a no-op when nobody listens. */
  readonly log: (level: ToolLogLevel, message: string, data?: unknown) => void;
  /** What the caller's client can do for the tool (sampling, elicitation); empty when it offers nothing. */
  readonly client: ClientRequests;
  /** Keeps what has been found so far; a timeout returns it as partial data. */
  readonly reportPartial: (data: unknown) => void;
  /** Calls another tool of the same catalog, with the same session (the caller's principal included). */
  readonly callTool: (name: string, input: unknown) => Promise<ToolResult>;
  /** Whether the catalog has a tool of that name (an optional companion plugin). */
  readonly hasTool: (name: string) => boolean;
  /**
   * The catalog's clock (Effect's `Clock`; a `TestClock` in tests): read time and wait on it, e.g.
   * `Effect.provideService(effect, Clock.Clock, ctx.clock)` for a `Schedule`, so a test moves time
   * instead of sleeping.
   */
  readonly clock: Clock.Clock;
  /** The task this call runs as (a tool with `task: "optional"` started as a task); undefined otherwise. */
  readonly task?: ToolTask;
}
