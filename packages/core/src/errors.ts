import * as Data from "effect/Data";

import { type ErrorKind, TRANSIENT_KINDS } from "./error-kinds.js";

export { ERROR_KINDS, type ErrorKind } from "./error-kinds.js";

const marker = Symbol.for("@quiver/core/ToolFailure");

/** What a tool (or the HTTP client) says when it fails: everything the envelope needs. */
export interface ToolFailureProps {
  readonly kind: ErrorKind;
  readonly message: string;
  /** Whether calling again may succeed; defaults by kind (unavailable, timeout, rate_limited, upstream). */
  readonly retryable?: boolean;
  /** How long to wait before calling again (from Retry-After or a breaker). */
  readonly retryAfterMs?: number;
  /** How to recover: a corrected argument, a narrower query. */
  readonly suggestion?: string;
  /** The fallback to take instead (use embedded knowledge ...). */
  readonly guidance?: string;
  /** Partial data to return alongside the failure (a timeout with what was found). */
  readonly data?: unknown;
  /** HTTP status, when the failure came from an upstream response. */
  readonly status?: number;
  readonly cause?: unknown;
}

/**
 * The typed failure of a tool. Throw it from an async `run`, or fail with it from an Effect `run`;
 * the runtime turns it into the result envelope at one boundary.
 *
 * @example
 * throw ToolFailure.make({ kind: "out_of_domain", message: "Sequence contains 'B', not an amino acid" })
 */
export class ToolFailure extends Data.TaggedError("ToolFailure")<ToolFailureProps> {
  readonly [marker] = true;
  /** True for a ToolFailure from any copy of @quiver/core (survives duplicate installs). */
  static isInstance(u: unknown): u is ToolFailure {
    return typeof u === "object" && u !== null && (u as Record<symbol, unknown>)[marker] === true;
  }
  /** Builds a failure, filling `retryable` from the kind when not given. */
  static make(props: ToolFailureProps): ToolFailure {
    return new ToolFailure({ ...props, retryable: props.retryable ?? TRANSIENT_KINDS.has(props.kind) });
  }
  /** Whether the runtime may retry this failure (for idempotent tools). */
  get isRetryable(): boolean {
    return this.retryable ?? TRANSIENT_KINDS.has(this.kind);
  }
}

type Extra = Omit<ToolFailureProps, "kind" | "message">;

/** A shorthand that builds a failure of one kind. */
const failureOf =
  (kind: ErrorKind) =>
  (message: string, extra: Extra = {}): ToolFailure =>
    ToolFailure.make({ kind, message, ...extra });

/** Shorthands for the common failures: `throw fail.invalidInput("top_k must be ≤ 100")`. */
export const fail = {
  invalidInput: failureOf("invalid_input"),
  unavailable: failureOf("unavailable"),
  timeout: failureOf("timeout"),
  accessDenied: failureOf("access_denied"),
  rateLimited: failureOf("rate_limited"),
  upstream: failureOf("upstream"),
  outOfDomain: failureOf("out_of_domain"),
  constraintViolation: failureOf("constraint_violation"),
  internal: failureOf("internal"),
} as const;
