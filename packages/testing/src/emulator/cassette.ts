import { canonicalQuery, jsonEqual } from "../internal/match.js";
import { loadJson } from "./load-json.js";
import type { EmulatorResponse, Route } from "./route.js";
import type { Emulator } from "./start-emulator.js";

/**
 * One recorded HTTP exchange, in the cassette file format of the recorded AlphaFold cassettes
 * (this package's test/fixtures/alphafold/api/).
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
  /** The full upstream URL, including the query string. */
  readonly url: string;
  /** The recorded status code. */
  readonly status: number;
  /** The recorded JSON request body, if any. */
  readonly request_json?: unknown;
  /** The recorded response body, parsed JSON. */
  readonly response_json?: unknown;
  /** The recorded response body, as text (CSV and other non-JSON bodies). */
  readonly response_text?: string;
  /** Recorded response headers, when the cassette has them. */
  readonly response_headers?: Readonly<Record<string, string>>;
  /** sha256 of the body as received (informational; not checked). */
  readonly response_sha256?: string;
}

/**
 * A recorded set of HTTP interactions for one example, with free-form metadata around them.
 *
 * Use {@link loadCassette} to read and validate one from disk.
 *
 * @example
 * const cassette: Cassette = { interactions: [] };
 */
export interface Cassette {
  /** The recorded interactions, in the order they happened. */
  readonly interactions: ReadonlyArray<CassetteInteraction>;
  /** Metadata such as `example`, `tool`, `input`, `recorded_at`, `note`. */
  readonly [key: string]: unknown;
}

/**
 * Options for {@link routesFromCassette}.
 *
 * @example
 * routesFromCassette(up, cassette, { filter: (i) => i.url.startsWith("https://alphafold.ebi.ac.uk/") });
 */
export interface CassetteOptions {
  /** Register only the interactions this returns true for (default: all). */
  readonly filter?: (interaction: CassetteInteraction) => boolean;
  /**
   * Put the recorded path under a prefix, to serve several hosts from one emulator without clashes,
   * e.g. `(u) => "/" + u.hostname` serves `https://rest.ensembl.org/lookup/x` at `/rest.ensembl.org/lookup/x`.
   */
  readonly pathPrefix?: string | ((url: URL) => string);
  /** Require the recorded query parameters, in any order (default true). */
  readonly matchQuery?: boolean;
  /** Require a JSON request body equal to `request_json`, when recorded (default false). */
  readonly matchBody?: boolean;
}

/**
 * Checks that a parsed value has the cassette shape and returns it typed; the error names the
 * offending interaction.
 *
 * Use it for cassettes that do not come from a file; {@link loadCassette} calls it for you.
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
    if (r.response_text !== undefined && typeof r.response_text !== "string") {
      throw new TypeError(`${where}.response_text must be a string`);
    }
  });
  return value as Cassette;
};

/**
 * Reads a cassette file and validates its shape.
 *
 * Use it with {@link routesFromCassette} to replay recorded upstream traffic offline.
 *
 * @example
 * const cassette = loadCassette(new URL("fixtures/alphafold/api/02-tp53-r175h/cassette.json", import.meta.url));
 * routesFromCassette(up, cassette);
 */
export const loadCassette = (path: string | URL): Cassette => parseCassette(loadJson(path), String(path));

/**
 * Registers every recorded interaction as a route (method, path, query, status, headers, body).
 * Identical requests recorded more than once are answered in recorded order, the last answer repeating.
 *
 * Use it to replay a real upstream conversation deterministically; combine with `fault()` to
 * break one of the recorded upstreams.
 *
 * @example
 * await using up = await startEmulator();
 * routesFromCassette(up, loadCassette(path));
 * const res = await fetch(`${up.url}/api/prediction/P04637`); // the recorded AlphaFold answer
 */
export const routesFromCassette = (
  emulator: Pick<Emulator, "route">,
  cassette: Cassette,
  options: CassetteOptions = {},
): Route[] => {
  const { filter, pathPrefix, matchQuery = true, matchBody = false } = options;
  const groups = new Map<string, CassetteInteraction[]>();
  for (const interaction of parseCassette(cassette).interactions) {
    if (filter && !filter(interaction)) continue;
    const key = JSON.stringify([
      interaction.method.toUpperCase(),
      pathOf(interaction, pathPrefix),
      matchQuery ? canonicalQuery(new URL(interaction.url).searchParams) : "",
      matchBody ? (interaction.request_json ?? null) : null,
    ]);
    const group = groups.get(key);
    if (group) group.push(interaction);
    else groups.set(key, [interaction]);
  }

  return [...groups.values()].map((group) => {
    const first = group[0]!;
    const recordedUrl = new URL(first.url);
    const query = canonicalQuery(recordedUrl.searchParams);
    let served = 0;
    return emulator.route(
      first.method.toUpperCase(),
      pathOf(first, pathPrefix),
      () => toResponse(group[Math.min(served++, group.length - 1)]!),
      {
        when: (req) =>
          (!matchQuery || canonicalQuery(req.query) === query) &&
          (!matchBody || first.request_json === undefined || jsonEqual(req.json, first.request_json)),
      },
    );
  });
};

const pathOf = (interaction: CassetteInteraction, prefix: CassetteOptions["pathPrefix"]): string => {
  const url = new URL(interaction.url);
  const base = prefix === undefined ? "" : typeof prefix === "string" ? prefix : prefix(url);
  return base.replace(/\/+$/, "") + url.pathname;
};

const TEXT_TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  json: "application/json",
};

/** Headers that described the original transfer, not the body we serve; dropped on replay. */
const TRANSFER_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);

const toResponse = (interaction: CassetteInteraction): EmulatorResponse => {
  const headers = Object.fromEntries(
    Object.entries(interaction.response_headers ?? {}).filter(
      ([name]) => !TRANSFER_HEADERS.has(name.toLowerCase()),
    ),
  );
  if (interaction.response_text !== undefined) {
    const ext = new URL(interaction.url).pathname.split(".").pop()?.toLowerCase() ?? "";
    const contentType = TEXT_TYPES[ext] ?? "text/plain; charset=utf-8";
    return {
      status: interaction.status,
      headers: { "content-type": contentType, ...headers },
      body: interaction.response_text,
    };
  }
  if (interaction.response_json !== undefined) {
    return { status: interaction.status, headers, json: interaction.response_json };
  }
  return { status: interaction.status, headers };
};
