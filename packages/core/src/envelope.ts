import type { ErrorKind } from "./errors.js";

/** The status of a tool call, as the model sees it. */
export type ToolStatus = "success" | "partial" | "error" | "timeout" | "access_denied" | "unavailable";

/** The error part of an envelope. */
export interface EnvelopeError {
  readonly kind: ErrorKind;
  readonly message: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
}

/** Facts about how a call ran; never holds a secret. */
export interface EnvelopeMetadata {
  readonly tool: string;
  readonly plugin: string;
  readonly callId: string;
  readonly durationMs: number;
  readonly attempts: number;
  readonly cached: boolean;
  /** True when the data is a last-known value served because the tool failed. */
  readonly stale?: boolean;
  readonly truncated: boolean;
  /** Where the data came from (an upstream name or URL without secrets). */
  readonly source?: string;
  /** The tool that answered, when a fallback tool did. */
  readonly fallbackTool?: string;
  readonly [extra: string]: unknown;
}

/** A pending confirmation of a destructive tool: call again with the token to run it. */
export interface ConfirmationRequest {
  readonly token: string;
  readonly expiresAt: string;
  readonly preview: unknown;
}

/**
 * The one result shape of every tool call. A call never throws: invalid input, upstream failures,
 * timeouts, defects and interruptions all come back as an envelope.
 */
export interface ToolResult<T = unknown> {
  readonly status: ToolStatus;
  /** One human line: what happened. */
  readonly message: string;
  /** The validated output (on partial: what there is). */
  readonly data?: T;
  /** How the model should use the data. */
  readonly instruction?: string;
  readonly error?: EnvelopeError;
  /** How to recover: the corrected call, a narrower query ... */
  readonly suggestion?: string;
  /** The fallback to take when the tool is unavailable. */
  readonly guidance?: string;
  /** True after the same tool failed twice in a row in one session: tell the user, stop retrying. */
  readonly escalate?: boolean;
  readonly confirmation?: ConfirmationRequest;
  readonly metadata: EnvelopeMetadata;
}

/** The envelope status for an error kind. */
export const statusForKind = (kind: ErrorKind): ToolStatus => {
  switch (kind) {
    case "timeout":
      return "timeout";
    case "access_denied":
      return "access_denied";
    case "unavailable":
      return "unavailable";
    default:
      return "error";
  }
};

/** True when the call produced usable data (success or partial). */
export const isOk = <T>(result: ToolResult<T>): result is ToolResult<T> & { readonly data: T } =>
  (result.status === "success" || result.status === "partial") && result.data !== undefined;
