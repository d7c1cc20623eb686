import type { Fault, FaultKind, MatrixFaultKind } from "../emulator/faults.js";
import type { FaultExpectation } from "./fault-matrix-defaults.js";

/** The fault kinds beyond `FAULT_KINDS` (encodings, redirects, stalls, bombs, ...). */
export type MoreFaultKind = Exclude<FaultKind, MatrixFaultKind>;

/**
 * A fault for each kind beyond `FAULT_KINDS`, sized for the matrix's 1.5 s timeout and 5 MiB body
 * limit: a gzip body, a BOM, a redirect to the cloud metadata address, a stall half-way, headers that
 * never come, 64 KiB of headers, a 64 MiB gzip bomb, an error object and an empty body under HTTP 200.
 *
 * @example
 * describeFaultMatrix({ ...fdaMatrix, faults: MORE_MATRIX_FAULTS, expect: MORE_MATRIX_EXPECTATIONS });
 */
export const MORE_MATRIX_FAULTS: Readonly<Record<MoreFaultKind, Fault>> = {
  encoded: { kind: "encoded", encoding: "gzip" },
  bom: { kind: "bom" },
  redirect: { kind: "redirect", location: "http://169.254.169.254/latest/meta-data/", status: 302 },
  stall: { kind: "stall" },
  headersNever: { kind: "headersNever" },
  oversizedHeaders: { kind: "oversizedHeaders" },
  bomb: { kind: "bomb" },
  errorObject: { kind: "errorObject" },
  emptyBody: { kind: "emptyBody" },
};

/**
 * What core's HTTP client and runtime make of each fault in `MORE_MATRIX_FAULTS` for a tool that does
 * not handle it itself: an encoded or BOM-prefixed body succeeds; a redirect off the origin, oversized
 * headers and a bomb are `upstream` errors a retry will not fix; a stall or missing headers a retryable
 * `timeout`; an empty body a retryable `upstream` error; every failure tells the model what to do. An
 * error object under HTTP 200 is an `upstream` error only when the tool checks the body (a schema, or
 * its own check): set the expectation per call where the tool does not.
 */
export const MORE_MATRIX_EXPECTATIONS: Readonly<Record<MoreFaultKind, FaultExpectation>> = {
  encoded: { status: "success" },
  bom: { status: "success" },
  redirect: {
    status: "error",
    kind: "upstream",
    retryable: false,
    message: /another origin/,
    guidance: true,
  },
  stall: { status: "timeout", kind: "timeout", retryable: true, guidance: true },
  headersNever: { status: "timeout", kind: "timeout", retryable: true, guidance: true },
  oversizedHeaders: {
    status: "error",
    kind: "upstream",
    retryable: false,
    message: /response headers larger/,
    guidance: true,
  },
  bomb: {
    status: "error",
    kind: "upstream",
    retryable: false,
    message: /decodes to more than/,
    guidance: true,
  },
  errorObject: { status: "error", kind: "upstream", guidance: true },
  emptyBody: { status: "error", kind: "upstream", retryable: true, message: /empty body/, guidance: true },
};
