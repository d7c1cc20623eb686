import type { CallOptions, Catalog, SessionContext, ToolResult } from "@quiver/core";

/**
 * What the seed mappings call tools through: a catalog, or anything with the same `call` (a host's
 * HTTP API or an MCP bridge wrapped to answer envelopes).
 *
 * @example
 * const caller: ToolCaller = catalog;
 */
export type ToolCaller = Pick<Catalog, "call"> & Partial<Pick<Catalog, "readResource">>;

/** Options shared by the seed mappings' drop-in tools. */
export interface SeedToolsOptions {
  /** Who is calling and in which conversation (principal, session id, injected values). */
  readonly session?: SessionContext;
  /** Cancels the calls (a client that went away). */
  readonly signal?: AbortSignal;
  /** Each call's time limit in milliseconds (bounded by the tool's own timeout). */
  readonly timeoutMs?: number;
}

/** Calls one tool with the session when there is one. */
export const callWith = (
  caller: ToolCaller,
  name: string,
  input: unknown,
  options: SeedToolsOptions,
  extra: Omit<CallOptions, "session" | "signal"> = {},
): Promise<ToolResult> =>
  caller.call(name, input, {
    ...(options.session ? { session: options.session } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...extra,
  });

/** The envelope's message with its suggestion, as one line for a seed's `error` field. */
export const errorLine = (r: ToolResult): string =>
  r.suggestion ? `${r.message} ${r.suggestion}` : r.message;

/** The data of an envelope as a record (an empty one when there is none). */
export const dataRecord = (r: ToolResult): Record<string, unknown> =>
  r.data !== null && typeof r.data === "object" && !Array.isArray(r.data)
    ? (r.data as Record<string, unknown>)
    : {};
