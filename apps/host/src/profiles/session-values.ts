// Session values a caller sends beside a call (a header, an MCP `_meta` key): apart from the host
// profile so that the HTTP API reads them without loading the seed profiles and their adapters.

/** The header carrying session values (a JSON object), e.g. the chatbot's `{"asignatura": "..."}`. */
export const SESSION_VALUES_HEADER = "x-quiver-session-values";
/** The `_meta` key of an MCP tools/call carrying session values. */
export const SESSION_VALUES_META = "quiver/session-values";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Session values from the `X-Quiver-Session-Values` header: a JSON object, or an Error saying why not.
 */
export const parseSessionValues = (
  header: string | null | undefined,
): Record<string, unknown> | undefined | Error => {
  if (header === null || header === undefined || header.trim() === "") return undefined;
  try {
    const v = JSON.parse(header) as unknown;
    if (isObject(v)) return v;
  } catch {
    /* answered below */
  }
  return new Error(`${SESSION_VALUES_HEADER} must be a JSON object, e.g. {"asignatura": "metaheuristicas"}.`);
};
