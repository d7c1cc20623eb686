// The JSON the HTTP API and the console's routes answer, as types. The browser console imports these
// (type-only) so a change to an answer breaks the console's typecheck, not its users. This file imports
// types only, from @quiver/core and @quiver/tasks, because the console's compiler reads it with the
// browser's libraries.
import type {
  ToolDescription as CatalogToolDescription,
  ErrorKind,
  HealthReport,
  ToolInfo,
  ToolResult,
  ToolStats,
} from "@quiver/core";
import type { TaskInfo, TaskPage } from "@quiver/tasks";

export type { ErrorKind, HealthReport, ToolInfo, ToolStats };

/** GET /tools/:name: the catalog's description, with the `ui://` URI of the tool's view when it has one. */
export type ToolDescription = CatalogToolDescription & { readonly viewUri?: string };

/** One finished call, as the console lists it: no input, no data, no secret. */
export interface RecentCall {
  readonly tool: string;
  readonly principal: string | undefined;
  readonly status: ToolResult["status"];
  /** The error kind when the call failed. */
  readonly kind: string | undefined;
  readonly durationMs: number;
  readonly attempts: number;
  readonly cached: boolean;
  /** When it finished (epoch ms). */
  readonly at: number;
}

/** A tool as the console lists it; an alias carries `aliasOf`, the tool it stands for (whose figures it shares). */
export type ConsoleTool = ToolInfo & { readonly aliasOf?: string };

/** A plugin as the console shows it. */
export interface ConsolePlugin {
  readonly id: string;
  readonly version?: string;
  readonly description?: string;
  /**
   * ready; unconfigured (a setting is missing: `missing` names it); failing (it did not load, or its
   * last setup failed: `message` says why, and the next call tries again).
   */
  readonly state: "ready" | "unconfigured" | "failing";
  readonly message?: string;
  /** Variables or options that would configure it. */
  readonly missing: ReadonlyArray<string>;
  /** What to do (failing plugins). */
  readonly fix?: string;
  readonly tools: ReadonlyArray<ConsoleTool>;
}

/** GET /console/api/state: the catalog grouped by plugin, and who the caller is. */
export interface ConsoleState {
  readonly principal: string | null;
  readonly auth: boolean;
  readonly version?: string | undefined;
  readonly plugins: ReadonlyArray<ConsolePlugin>;
}

/** GET /console/api/stats: per-tool figures now, and the recent calls (newest first). */
export interface ConsoleStats {
  /** When the figures were taken (epoch ms). */
  readonly at: number;
  readonly tools: ReadonlyArray<ToolStats>;
  readonly recent: ReadonlyArray<RecentCall>;
}

/** A task as `GET /tasks` and `GET /tasks/:id` (while it works) show it. */
export type TaskView = TaskInfo;

/** GET /tasks: the caller's tasks, newest first. */
export type TaskList = TaskPage;

/** POST /tools/:name/call: the call's envelope. */
export type Envelope = ToolResult;

/** Any answer other than 2xx. */
export interface ApiErrorBody {
  readonly error: { readonly code: string; readonly message: string; readonly fix?: string };
}
