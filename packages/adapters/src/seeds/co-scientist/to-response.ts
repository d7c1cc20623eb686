import type { ToolResult } from "@quiver/core";
import { defined, isObject } from "./json.js";
import { ERROR_TYPE, STATUS } from "./responses.js";
import type { Built, SeedTool } from "./seed-tool.js";
import type { ExternalToolResponse, ExternalToolStatus, Json } from "./types.js";

/**
 * Turns a call's envelope into the co-scientist's response: a failure keeps `results: null` with the error
 * type, retry time and every constraint accounted for; an answer is shaped by the mapping, and any unmet
 * constraint or incomplete answer makes it PARTIAL_SUCCESS (a timeout keeps what was found).
 */
export const toResponse = (
  r: ToolResult,
  name: string,
  seconds: number,
  constraints: Json,
  mapping: SeedTool,
  built: Extract<Built, { readonly input: Json }>,
): ExternalToolResponse => {
  const ran = defined({
    quiver_tool: r.metadata.tool,
    execution_time_ms: r.metadata.durationMs,
    timeout_seconds: seconds,
    ...(r.metadata.stale ? { stale: true, stale_age_seconds: (r.metadata.staleAgeMs ?? 0) / 1000 } : {}),
    data_source: r.metadata.source,
    escalate: r.escalate ? true : undefined,
  });
  const hasData = r.data !== undefined && r.data !== null && isObject(r.data);
  if (!hasData || !(r.status === "success" || r.status === "partial")) {
    const kind = r.error?.kind ?? "internal";
    return {
      tool_name: name,
      status: STATUS[r.status],
      results: null,
      metadata: defined({
        error_type: ERROR_TYPE[kind] ?? "INTERNAL_ERROR",
        message: r.message,
        retry_after: r.error?.retryAfterMs === undefined ? undefined : Math.ceil(r.error.retryAfterMs / 1000),
        suggestion: r.suggestion,
        guidance: r.guidance,
        unmet_constraints:
          Object.keys(constraints).length > 0
            ? Object.keys(constraints).map(
                (k) =>
                  built.unmet.find((line) => line.startsWith(`${k}:`)) ??
                  `${k}: not applied, the call failed`,
              )
            : undefined,
        ...ran,
      }),
      cached: r.metadata.cached,
    };
  }
  const shaped = mapping.shape(r.data as Json, constraints, r.metadata as Json);
  const unmet = [...built.unmet, ...(shaped.unmet ?? [])];
  const met = shaped.met !== false && unmet.length === 0;
  // A call that ran out of time with some results: a partial marked incomplete.
  const timedOut = r.metadata.incomplete === true;
  const incomplete = timedOut || shaped.complete === false;
  const status: ExternalToolStatus = timedOut
    ? "TIMEOUT"
    : r.status === "partial" || !met || incomplete
      ? "PARTIAL_SUCCESS"
      : "SUCCESS";
  return {
    tool_name: name,
    status,
    results: shaped.results,
    metadata: defined({
      ...ran,
      ...shaped.metadata,
      query_constraints_met: met,
      unmet_constraints: unmet,
      ...(incomplete ? { incomplete: true } : {}),
      message: status === "SUCCESS" ? undefined : r.message,
      suggestion: r.suggestion,
    }),
    cached: r.metadata.cached,
  };
};
