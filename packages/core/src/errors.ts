import * as Data from "effect/Data";

import { type ErrorKind, TRANSIENT_KINDS } from "./error-kinds.js";

export { ERROR_KINDS, type ErrorKind } from "./error-kinds.js";

const RETRYABLE_BY_DEFAULT: ReadonlySet<ErrorKind> = TRANSIENT_KINDS;

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
    return new ToolFailure({ ...props, retryable: props.retryable ?? RETRYABLE_BY_DEFAULT.has(props.kind) });
  }
  /** Whether the runtime may retry this failure (for idempotent tools). */
  get isRetryable(): boolean {
    return this.retryable ?? RETRYABLE_BY_DEFAULT.has(this.kind);
  }
}

type Extra = Omit<ToolFailureProps, "kind" | "message">;

/** Shorthands for the common failures: `throw fail.invalidInput("top_k must be ≤ 100")`. */
export const fail = {
  invalidInput: (message: string, extra: Extra = {}) =>
    ToolFailure.make({ kind: "invalid_input", message, ...extra }),
  unavailable: (message: string, extra: Extra = {}) =>
    ToolFailure.make({ kind: "unavailable", message, ...extra }),
  timeout: (message: string, extra: Extra = {}) => ToolFailure.make({ kind: "timeout", message, ...extra }),
  accessDenied: (message: string, extra: Extra = {}) =>
    ToolFailure.make({ kind: "access_denied", message, ...extra }),
  rateLimited: (message: string, extra: Extra = {}) =>
    ToolFailure.make({ kind: "rate_limited", message, ...extra }),
  upstream: (message: string, extra: Extra = {}) => ToolFailure.make({ kind: "upstream", message, ...extra }),
  outOfDomain: (message: string, extra: Extra = {}) =>
    ToolFailure.make({ kind: "out_of_domain", message, ...extra }),
  constraintViolation: (message: string, extra: Extra = {}) =>
    ToolFailure.make({ kind: "constraint_violation", message, ...extra }),
  internal: (message: string, extra: Extra = {}) => ToolFailure.make({ kind: "internal", message, ...extra }),
} as const;
