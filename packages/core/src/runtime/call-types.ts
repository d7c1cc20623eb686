import type { ClientRequests, ToolLogEntry, ToolProgress, ToolTask } from "../tool-context.js";
import type { TraceContext } from "./trace-context.js";

/** Who is calling and in which conversation; the host fills it from its transport. */
export interface SessionContext {
  /**
   * The conversation; escalation counts failures per principal and session. A call without one runs
   * in its principal's {@link DEFAULT_SESSION_ID} session (one-shot calls of a script or the CLI).
   */
  readonly id?: string;
  /** The authenticated caller (from a token mapping); part of every cache key. */
  readonly principal?: string;
  /** The caller's groups, as the identity provider's token states them (a groups claim); part of every cache key. */
  readonly groups?: ReadonlyArray<string>;
  /** The OAuth client the caller's token was issued to (`client_id`/`azp`), for audit logs. */
  readonly clientId?: string;
  /** The OAuth scopes of the caller's access token; absent when its credentials are not scope-limited (static tokens, stdio). */
  readonly scopes?: ReadonlyArray<string>;
  /** Values for context-injected parameters (e.g. `{ subject: "metaheuristicas" }`). */
  readonly values?: Readonly<Record<string, unknown>>;
}

/** The session a call without a session id counts its failures in (per principal). */
export const DEFAULT_SESSION_ID = "default";

/** Per-call options. */
export interface CallOptions {
  readonly session?: SessionContext;
  /**
   * This call's time limit in milliseconds (e.g. a caller's `timeout_seconds` × 1000), bounded by
   * the tool's policy timeout, its maximum: the smaller of the two applies. Must be a positive number.
   */
  readonly timeoutMs?: number;
  /** Cancels the call: the run is interrupted and its upstream request aborted. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ToolProgress) => void;
  /** Receives the tool's log lines (`ctx.log`); without it they go nowhere. */
  readonly onLog?: (entry: ToolLogEntry) => void;
  /** What the caller's client can do for the tool (`ctx.client`: sampling, elicitation). */
  readonly client?: ClientRequests;
  /** The token from a destructive tool's preview (also accepted as input `confirmation_token`). */
  readonly confirmationToken?: string;
  /** Set on the call a fallback makes, so fallbacks never chain. */
  readonly viaFallback?: boolean;
  /**
   * The caller's W3C trace context (`traceContextOf(req.headers)`, or MCP `params._meta`): with a
   * tracer installed, the call's spans join that trace. Ignored without a tracer.
   */
  readonly trace?: TraceContext | undefined;
  /** A span the transport that received the call opens around it (an MCP server's `tools/call`). */
  readonly transportSpan?: TransportSpan | undefined;
  /** The task the call runs as, handed to the tool as `ctx.task` (a task runner sets it). */
  readonly task?: ToolTask | undefined;
}

/** A server span a transport describes and the runtime opens (with a tracer installed) around a call. */
export interface TransportSpan {
  /** The span's name, e.g. `tools/call fda_search_drugs`. */
  readonly name: string;
  /** Its attributes (never a secret, an input or a body). */
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
}
