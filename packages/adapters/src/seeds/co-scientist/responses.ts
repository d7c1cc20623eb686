import type { ToolResult } from "@quiver/core";
import type { ExternalToolResponse, ExternalToolStatus, Json } from "./types.js";

/** The `error_type` of each failure kind. */
export const ERROR_TYPE: Readonly<Record<string, string>> = {
  invalid_input: "INVALID_INPUT",
  unavailable: "SERVICE_UNAVAILABLE",
  timeout: "TIMEOUT",
  access_denied: "ACCESS_DENIED",
  rate_limited: "RATE_LIMITED",
  upstream: "UPSTREAM_ERROR",
  out_of_domain: "OUT_OF_DOMAIN",
  constraint_violation: "CONSTRAINT_VIOLATION",
  internal: "INTERNAL_ERROR",
};

/** The response status of each envelope status. */
export const STATUS: Readonly<Record<ToolResult["status"], ExternalToolStatus>> = {
  success: "SUCCESS",
  partial: "PARTIAL_SUCCESS",
  timeout: "TIMEOUT",
  access_denied: "ACCESS_DENIED",
  error: "FAILURE",
  unavailable: "FAILURE",
};

/** The default time limit of a request, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 300;

/** A response that ran no tool: FAILURE, `results: null`, the reason and how to correct it. */
export const failure = (
  toolName: unknown,
  errorType: string,
  message: string,
  extra: Json = {},
): ExternalToolResponse => ({
  tool_name: typeof toolName === "string" ? toolName : "",
  status: "FAILURE",
  results: null,
  metadata: { error_type: errorType, message, ...extra },
  cached: false,
});
