import { callWith, type SeedToolsOptions, type ToolCaller } from "../tool-caller.js";
import { withLinksRead } from "./follow-links.js";
import { readRequest } from "./read-request.js";
import { resolveTool } from "./resolve-tool.js";
import { failure } from "./responses.js";
import { toResponse } from "./to-response.js";
import type { ExternalToolRequest, ExternalToolResponse } from "./types.js";

/** Options of {@link createExternalToolExecutor}. */
export interface ExternalToolExecutorOptions extends SeedToolsOptions {}

/** Runs the co-scientist's requests. */
export interface ExternalToolExecutor {
  readonly execute: (request: ExternalToolRequest) => Promise<ExternalToolResponse>;
}

/**
 * The co-scientist's drop-in: turns an `ExternalToolRequest` into one Quiver call (`tool_type` picks
 * the category, constraints merged into the criteria or filters, `timeout_seconds` as the call's
 * limit) and the envelope into an `ExternalToolResponse`. A constraint is applied, checked against
 * the answer, or listed in `metadata.unmet_constraints` (then PARTIAL_SUCCESS); never dropped. A
 * failure answers `results: null` with `metadata.error_type`, `message` and `retry_after`; a timeout
 * keeps what was found, marked `metadata.incomplete`. An artifact the answer links to (a structure
 * over the output budget) is read back with the caller's `readResource`, so the response holds it.
 *
 * @example
 * const tools = createExternalToolExecutor(catalog, { session: { principal: "scientist-1" } });
 * const r = await tools.execute({ tool_type: "SCIENTIFIC_DATABASE", tool_name: "FDA_Drug_Database",
 *   query: { search_criteria: { active_ingredient: "semaglutide" } }, constraints: { approval_year: { after: 2010 } } });
 */
export const createExternalToolExecutor = (
  caller: ToolCaller & { readonly has?: (name: string) => boolean },
  options: ExternalToolExecutorOptions = {},
): ExternalToolExecutor => ({
  execute: async (request) => {
    const read = readRequest(request);
    if ("refused" in read) return read.refused;
    const { name, query, constraints, seconds } = read;
    const found = resolveTool(caller, read.type, name);
    if ("refused" in found) return found.refused;
    const mapping = found.tool;
    const built = mapping.input(query, constraints, name);
    if ("refused" in built)
      return failure(name, "INVALID_INPUT", built.refused, {
        suggestion: "Correct the field named and send the request again.",
      });

    if (caller.has && !caller.has(mapping.tool))
      return failure(
        name,
        "SERVICE_UNAVAILABLE",
        `${name} is not served by this host: its Quiver tool ${mapping.tool} is not installed or not enabled.`,
        {
          suggestion: "Try an alternative tool from GET /external-tools.",
        },
      );
    const r = await callWith(caller, mapping.tool, built.input, options, { timeoutMs: seconds * 1000 });
    return toResponse(await withLinksRead(r, caller, options), name, seconds, constraints, mapping, built);
  },
});
