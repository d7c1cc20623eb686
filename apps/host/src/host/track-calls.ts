import { type CallOptions, type Catalog, callConcurrently, type ToolResult } from "@quiver/core";
import type { RecentCall } from "../http/api-types.js";

/** A call the host is running. */
export interface InflightCall {
  readonly id: number;
  readonly tool: string;
  readonly principal: string | undefined;
  readonly startedAt: number;
  /** Settles with the call's envelope (never rejects). */
  readonly done: Promise<ToolResult>;
}

/** What `drain` did. */
export interface DrainReport {
  /** Calls that finished on their own within the bound. */
  readonly finished: number;
  /** Calls cancelled at the bound (their callers received an `unavailable` envelope). */
  readonly cancelled: ReadonlyArray<InflightCall & { readonly result: ToolResult }>;
}

/** A catalog whose calls the host can count, wait for and cancel at shutdown. */
export interface TrackedCatalog {
  /** Use this catalog everywhere (HTTP API, MCP, stdio): its calls are tracked. */
  readonly catalog: Catalog;
  readonly inflight: () => ReadonlyArray<InflightCall>;
  /**
   * Refuses no call by itself, but waits up to `timeoutMs` for the calls in flight, then aborts the
   * rest through their AbortSignals and waits for their envelopes.
   */
  readonly drain: (timeoutMs: number) => Promise<DrainReport>;
  /** Aborts every call now (a second Ctrl-C). */
  readonly abortAll: (reason?: string) => void;
  /** The last 50 finished calls, newest first (the console's "recent calls"). */
  readonly recent: () => ReadonlyArray<RecentCall>;
}

/** How many finished calls `recent` keeps. */
const RECENT_CALLS = 50;

/**
 * Wraps a catalog so every call gets a shutdown signal joined to its own, and is tracked until it
 * settles: graceful shutdown lets in-flight calls finish within a bound, then cancels them. The last
 * finished calls are kept for the console.
 *
 * @example
 * const tracked = trackCalls(catalog)
 * process.once("SIGTERM", async () => { const r = await tracked.drain(10_000); console.log(r.cancelled.length) })
 */
export const trackCalls = (inner: Catalog): TrackedCatalog => {
  const shutdown = new AbortController();
  const calls = new Map<number, InflightCall>();
  let nextId = 1;
  // The console's "recent calls": no input, no data, no secret.
  const recent: RecentCall[] = [];
  const remember = (result: ToolResult, principal: string | undefined) => {
    const m = result.metadata;
    recent.unshift({
      tool: m.tool,
      principal,
      status: result.status,
      kind: result.error?.kind,
      durationMs: m.durationMs,
      attempts: m.attempts,
      cached: m.cached,
      at: Date.now(),
    });
    if (recent.length > RECENT_CALLS) recent.length = RECENT_CALLS;
  };

  const call = (name: string, input: unknown, options: CallOptions = {}): Promise<ToolResult> => {
    const id = nextId++;
    const signal = options.signal ? AbortSignal.any([options.signal, shutdown.signal]) : shutdown.signal;
    const done = inner.call(name, input, { ...options, signal });
    const principal = options.session?.principal;
    calls.set(id, { id, tool: name, principal, startedAt: Date.now(), done });
    // A catalog's call never rejects: its failures are envelopes.
    return done.then((result) => {
      calls.delete(id);
      remember(result, principal);
      return result;
    });
  };

  const catalog: Catalog = {
    ...inner,
    call,
    callMany: (list, opts = {}) => callConcurrently(call, list, opts),
  };

  const drain = async (timeoutMs: number): Promise<DrainReport> => {
    const pending = [...calls.values()];
    if (pending.length === 0) return { finished: 0, cancelled: [] };
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<"timeout">((r) => {
      timer = setTimeout(() => r("timeout"), timeoutMs);
    });
    await Promise.race([Promise.all(pending.map((c) => c.done)), bound]);
    clearTimeout(timer);
    const left = [...calls.values()];
    if (left.length > 0) shutdown.abort(new Error("The host is shutting down."));
    const results = await Promise.all(left.map((c) => c.done));
    return {
      finished: pending.length - left.length,
      cancelled: left.map((c, i) => ({ ...c, result: results[i]! })),
    };
  };

  return {
    catalog,
    inflight: () => [...calls.values()],
    drain,
    abortAll: (reason = "The host is shutting down.") => shutdown.abort(new Error(reason)),
    recent: () => [...recent],
  };
};
