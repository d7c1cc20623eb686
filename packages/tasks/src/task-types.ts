import type { CallOptions, SessionContext, ToolProgress, ToolResult } from "@quiver/core";

/**
 * A task's status, as MCP names them: `working` until it ends `completed` (the tool answered
 * success or partial), `failed` (any other envelope, its deadline, or the replica running it
 * stopped) or `cancelled`. `input_required` is reserved (a task's tool cannot ask its caller yet).
 */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** The statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** What a caller sees of a task (never its owner, its replica or its input). */
export interface TaskInfo {
  /** Unguessable (32 random bytes, base64url): without authentication it is the only key to the task. */
  readonly id: string;
  /** The tool it runs. */
  readonly tool: string;
  readonly status: TaskStatus;
  /** Why it is in its status, in one line (its envelope's message when it failed). */
  readonly statusMessage?: string;
  /** The tool's latest progress, as `ctx.progress` reported it. */
  readonly progress?: ToolProgress;
  /** When it was started and last changed, in milliseconds since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** How long it and its result are kept once it ends, in milliseconds. */
  readonly ttlMs: number;
  /** How often a caller should poll it, in milliseconds. */
  readonly pollIntervalMs: number;
  /** When it is stopped if still working, in milliseconds since the epoch. */
  readonly deadlineAt: number;
}

/**
 * A task as the store keeps it: what the caller sees, plus its owner key, the replica that runs it
 * and its resume point: a tool whose upstream has its own job (Perplexity's background research)
 * stores that job's id with `ctx.task.resume`, so another replica takes the task over and polls it.
 */
export interface TaskRecord extends TaskInfo {
  /** The owner's key (a store key of the principal); `""` for a caller without a principal. */
  readonly owner: string;
  /** The replica that started it (whose lease says it still runs it). */
  readonly replica: string;
  /** Where a takeover resumes (an upstream job id), as the tool stored it with `ctx.task.resume`. */
  readonly resume?: Readonly<Record<string, unknown>>;
}

/** Options of {@link TaskRunner.start}. */
export interface StartTaskOptions {
  /** Who starts it and so owns it (default `session.principal`); none: the id alone guards it. */
  readonly principal?: string;
  /** The session the call runs in (its groups, scopes, values); its principal is the owner's. */
  readonly session?: SessionContext;
  /** How long the task and its result are kept once it ends (capped by the runner's `maxTtlMs`). */
  readonly ttlMs?: number;
  /** How long it may run before it is stopped and fails, in milliseconds (default the runner's, 300 s). */
  readonly deadlineMs?: number;
  /** How often a caller should poll (default the runner's). */
  readonly pollIntervalMs?: number;
  /** Other call options passed to `catalog.call` (a trace context, a log sink). */
  readonly call?: Omit<CallOptions, "signal" | "onProgress" | "session">;
}

/** Why a task request could not be answered: errors are data. */
export interface TaskError {
  /**
   * `not_found`: no task of this caller has this id (another caller's task is not found either);
   * `expired`: it ended and its result is no longer kept; `cancelled`: it was cancelled, there is no
   * result; `failed`: it failed without a result (its replica stopped); `working`: not finished yet;
   * `finished`: it already ended, so it cannot be cancelled.
   */
  readonly code: "not_found" | "expired" | "cancelled" | "failed" | "working" | "finished";
  readonly message: string;
  /** The task, when the caller may see it. */
  readonly task?: TaskInfo;
}

/** A task's final envelope, or why there is none. */
export type TaskResult =
  | { readonly ok: true; readonly task: TaskInfo; readonly envelope: ToolResult }
  | ({ readonly ok: false } & TaskError);

/** A task, or why the caller cannot see or change it. */
export type TaskAnswer =
  | { readonly ok: true; readonly task: TaskInfo }
  | ({ readonly ok: false } & TaskError);

/** One page of a caller's tasks. */
export interface TaskPage {
  /** Newest first. */
  readonly tasks: ReadonlyArray<TaskInfo>;
  /** Pass to the next `list` call for the next page; absent on the last. */
  readonly nextCursor?: string;
}
