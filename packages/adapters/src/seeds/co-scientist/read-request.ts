import { externalToolCatalogue } from "./catalogue.js";
import { isObject } from "./json.js";
import { DEFAULT_TIMEOUT_SECONDS, failure } from "./responses.js";
import type { ExternalToolRequest, ExternalToolResponse, Json } from "./types.js";

/** A refusal: the FAILURE response to send back instead of running anything. */
const refuse = (...args: Parameters<typeof failure>) => ({ refused: failure(...args) });

/** A request whose fields have the right types, read from what the co-scientist sent. */
export interface ReadRequest {
  readonly name: string;
  readonly type: unknown;
  readonly query: Json;
  readonly constraints: Json;
  readonly seconds: number;
}

/**
 * Checks the request's fields (a name, a query object, constraints as an object, a positive time limit)
 * and reads them, or answers the INVALID_REQUEST response saying what to correct.
 */
export const readRequest = (request: unknown): ReadRequest | { readonly refused: ExternalToolResponse } => {
  const req = (isObject(request) ? request : {}) as Partial<ExternalToolRequest> & { parameters?: unknown };
  const name = req.tool_name;
  if (typeof name !== "string" || name.trim() === "")
    return refuse(name, "INVALID_REQUEST", "tool_name must be the tool's name.", {
      suggestion: `Name one of: ${externalToolCatalogue()
        .map((t) => t.tool_name)
        .join(", ")}, or a repository or collection.`,
    });
  // `parameters` was the earlier mapping's name for the query.
  const query = req.query ?? req.parameters;
  if (!isObject(query))
    return refuse(
      name,
      "INVALID_REQUEST",
      "query must be an object (a ProteinQuery, DatabaseQuery or RepositoryQuery).",
      {
        suggestion:
          'e.g. {"sequence": "MKT..."}, {"search_criteria": {"active_ingredient": "semaglutide"}} or {"search_terms": ["GLP-1"]}',
      },
    );
  if (req.constraints !== undefined && req.constraints !== null && !isObject(req.constraints))
    return refuse(name, "INVALID_REQUEST", "constraints must be an object of constraint name → value.");
  const constraints = isObject(req.constraints) ? req.constraints : {};
  const seconds = req.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0)
    return refuse(name, "INVALID_REQUEST", "timeout_seconds must be a positive number of seconds.", {
      suggestion: `Leave it out for ${DEFAULT_TIMEOUT_SECONDS}.`,
    });
  return { name, type: req.tool_type, query, constraints, seconds };
};
