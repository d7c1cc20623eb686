import type { ToolResult } from "@quiver/core";

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

/** The last calls a host answered, newest first. */
export interface RecentCalls {
  readonly record: (result: ToolResult, principal: string | undefined) => void;
  readonly list: () => ReadonlyArray<RecentCall>;
}

/**
 * A bounded log of finished calls (the newest `capacity`), for the console's "recent calls".
 *
 * @example
 * const recent = recentCalls(50)
 * recent.record(await catalog.call("echo_text", { text: "hi" }), "alice")
 */
export const recentCalls = (capacity = 50): RecentCalls => {
  const calls: RecentCall[] = [];
  return {
    record: (result, principal) => {
      const m = result.metadata;
      calls.unshift({
        tool: m.tool,
        principal,
        status: result.status,
        kind: result.error?.kind,
        durationMs: m.durationMs,
        attempts: m.attempts,
        cached: m.cached,
        at: Date.now(),
      });
      if (calls.length > capacity) calls.length = capacity;
    },
    list: () => [...calls],
  };
};
