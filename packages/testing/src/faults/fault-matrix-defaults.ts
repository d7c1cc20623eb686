import type { ErrorKind, ToolResult } from "@quiver/core";
import type { Fault, MatrixFaultKind } from "../emulator/faults.js";

/** The envelope a fault must end in. */
export interface FaultExpectation {
  /** The envelope status. */
  readonly status: ToolResult["status"];
  /** The error kind (checked when given). */
  readonly kind?: ErrorKind;
  /** Whether the error says a retry may succeed (checked when given). */
  readonly retryable?: boolean;
  /** A pattern the message must match (checked when given). */
  readonly message?: RegExp;
  /** When true, the model must be told what to do (`guidance` or `suggestion`); not checked otherwise. */
  readonly guidance?: boolean;
  /** How many attempts the call made (`metadata.attempts`: 1 when the failure is not retried; checked when given). */
  readonly attempts?: number;
  /** Further checks on the envelope, e.g. the data of a fallback or a partial result. */
  readonly check?: (result: ToolResult) => void;
}

/**
 * The fault injected for each kind the emulator offers, sized so a client with a 1.5 s timeout and a
 * 5 MiB body limit sees each one.
 */
export const MATRIX_FAULTS: Readonly<Record<MatrixFaultKind, Fault>> = {
  delay: { kind: "delay", ms: 150 },
  hang: { kind: "hang" },
  slowBody: { kind: "slowBody", chunkBytes: 1024, intervalMs: 2 },
  reset: { kind: "reset" },
  status: { kind: "status", status: 503, retryAfter: 1 },
  invalidJson: { kind: "invalidJson" },
  htmlError: { kind: "htmlError", status: 200 },
  oversized: { kind: "oversized", bytes: 6 * 1024 * 1024 },
  wrongContentType: { kind: "wrongContentType", contentType: "text/plain" },
};

/**
 * What core's HTTP client and runtime make of each fault in `MATRIX_FAULTS` for a tool that does not
 * handle it itself: slow answers and an unexpected content type succeed; a hang is a retryable
 * `timeout` and a reset or a 503 a retryable `unavailable`, all with guidance; broken JSON is a
 * retryable `upstream` error; an HTML page and an oversized body are `upstream` errors that a retry
 * will not fix, with a suggestion.
 */
export const MATRIX_EXPECTATIONS: Readonly<Record<MatrixFaultKind, FaultExpectation>> = {
  delay: { status: "success" },
  hang: { status: "timeout", kind: "timeout", retryable: true, guidance: true },
  slowBody: { status: "success" },
  reset: { status: "unavailable", kind: "unavailable", retryable: true, guidance: true },
  status: {
    status: "unavailable",
    kind: "unavailable",
    retryable: true,
    message: /HTTP 503/,
    guidance: true,
  },
  invalidJson: { status: "error", kind: "upstream", retryable: true, message: /invalid JSON/ },
  htmlError: { status: "error", kind: "upstream", retryable: false, message: /HTML page/, guidance: true },
  oversized: { status: "error", kind: "upstream", retryable: false, message: /larger than/, guidance: true },
  wrongContentType: { status: "success" },
};

/**
 * `expectations` with the attempts each failure takes under a policy of `retries` retries: a
 * retryable failure is tried `retries + 1` times, any other once. A timeout is left unchecked (the
 * call's deadline, not the count, ends it).
 *
 * @example
 * describeFaultMatrix({ ...fdaMatrix, policy: { retry: { times: 2, base: "10ms" } }, expect: withAttempts(MATRIX_EXPECTATIONS, 2) });
 */
export const withAttempts = <K extends string>(
  expectations: Readonly<Record<K, FaultExpectation>>,
  retries: number,
): Record<K, FaultExpectation> =>
  Object.fromEntries(
    Object.entries<FaultExpectation>(expectations).map(([kind, want]) => [
      kind,
      want.status === "success" || want.kind === "timeout" || want.retryable === undefined
        ? want
        : { ...want, attempts: want.retryable ? retries + 1 : 1 },
    ]),
  ) as Record<K, FaultExpectation>;
