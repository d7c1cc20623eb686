import { z } from "zod";

/**
 * The kinds of failure a tool call can end in, in a fixed order: the one list every other place
 * (errors, envelope, policies, MCP, metrics, docs) derives from.
 */
export const errorKindSchema = z.enum([
  "invalid_input",
  "unavailable",
  "timeout",
  "access_denied",
  "rate_limited",
  "upstream",
  "out_of_domain",
  "constraint_violation",
  "internal",
]);

/** The kinds of failure a tool call can end in; each maps to one envelope status. */
export type ErrorKind = z.infer<typeof errorKindSchema>;

/** Every error kind, in a fixed order (for metrics, docs and exhaustive tests). */
export const ERROR_KINDS: ReadonlyArray<ErrorKind> = errorKindSchema.options;

/** Kinds that say the upstream is unhealthy (they count towards a circuit breaker). */
export const UPSTREAM_FAILURE_KINDS: ReadonlySet<ErrorKind> = new Set(["unavailable", "timeout", "upstream"]);

/** Kinds retryable unless the failure says otherwise, and the ones a fallback answers for. */
export const TRANSIENT_KINDS: ReadonlySet<ErrorKind> = new Set([
  "unavailable",
  "timeout",
  "upstream",
  "rate_limited",
]);
