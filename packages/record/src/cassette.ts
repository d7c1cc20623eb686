/**
 * One recorded HTTP exchange. The format is shared by `@quiver/testing` (which serves cassettes from
 * its emulator) and the record/replay client of core (which writes one cassette per tool call).
 * The response body is `response_json` (served as JSON) or `response_text` (served as text).
 *
 * @example
 * const i: CassetteInteraction = { method: "GET", url: "https://alphafold.ebi.ac.uk/api/prediction/P04637", status: 200, response_json: [] };
 */
export interface CassetteInteraction {
  /** Which upstream this came from (informational), e.g. "AlphaFold DB". */
  readonly source?: string;
  /** The HTTP method. */
  readonly method: string;
  /** The full upstream URL, including the query string (secrets replaced with `[REDACTED]`). */
  readonly url: string;
  /** The recorded status code. */
  readonly status: number;
  /** Request headers as sent, credentials replaced with `[REDACTED]` (informational; not matched). */
  readonly request_headers?: Readonly<Record<string, string>>;
  /** The recorded JSON request body, if any. */
  readonly request_json?: unknown;
  /** The recorded request body when it is not JSON. */
  readonly request_text?: string;
  /** The recorded response body, parsed JSON. */
  readonly response_json?: unknown;
  /** The recorded response body, as text (CSV and other non-JSON bodies). */
  readonly response_text?: string;
  /** Recorded response headers, when the cassette has them. */
  readonly response_headers?: Readonly<Record<string, string>>;
  /** sha256 of the body as received (informational; not checked). */
  readonly response_sha256?: string;
  /** Time from sending the request to the end of the response body, in ms (replayed with `timing: "recorded"`). */
  readonly elapsed_ms?: number;
}

/**
 * A recorded set of HTTP interactions for one example or one tool call, with free-form metadata
 * around them (`tool`, `input`, `plugin`, `note` ...).
 *
 * @example
 * const cassette: Cassette = { tool: "fda_search_drugs", input: { limit: 1 }, interactions: [] };
 */
export interface Cassette {
  /** The recorded interactions, in the order they were sent. */
  readonly interactions: ReadonlyArray<CassetteInteraction>;
  /** Metadata such as `example`, `tool`, `input`, `plugin`, `note`. */
  readonly [key: string]: unknown;
}

/**
 * Checks that a parsed value has the cassette shape and returns it typed; the error names the
 * offending interaction.
 *
 * @example
 * const cassette = parseCassette(JSON.parse(text), "inline cassette");
 */
export const parseCassette = (value: unknown, origin = "cassette"): Cassette => {
  if (typeof value !== "object" || value === null || !Array.isArray((value as Cassette).interactions)) {
    throw new TypeError(`${origin}: expected an object with an "interactions" array`);
  }
  const interactions = (value as Cassette).interactions;
  interactions.forEach((i: unknown, index) => {
    const where = `${origin}: interactions[${index}]`;
    if (typeof i !== "object" || i === null) throw new TypeError(`${where} is not an object`);
    const r = i as Record<string, unknown>;
    if (typeof r.method !== "string") throw new TypeError(`${where}.method must be a string`);
    if (typeof r.url !== "string" || !URL.canParse(r.url))
      throw new TypeError(`${where}.url must be an absolute URL`);
    if (typeof r.status !== "number") throw new TypeError(`${where}.status must be a number`);
    for (const field of ["response_text", "request_text"] as const) {
      if (r[field] !== undefined && typeof r[field] !== "string") {
        throw new TypeError(`${where}.${field} must be a string`);
      }
    }
    if (r.elapsed_ms !== undefined && typeof r.elapsed_ms !== "number") {
      throw new TypeError(`${where}.elapsed_ms must be a number`);
    }
  });
  return value as Cassette;
};
