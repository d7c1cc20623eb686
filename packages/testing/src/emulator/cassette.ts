import { REDACTED } from "@quiver/core";
import {
  type Cassette,
  type CassetteInteraction,
  parseCassette as recordParseCassette,
} from "@quiver/record";
import { canonicalQuery, jsonEqual } from "../internal/match.js";
import { loadJson } from "./load-json.js";
import type { EmulatorResponse, Route } from "./route.js";
import type { Emulator } from "./start-emulator.js";

/**
 * The cassette format is `@quiver/record`'s (it writes it when recording tool calls, this package
 * serves it from the emulator): one format, one parser.
 */
export type { Cassette, CassetteInteraction } from "@quiver/record";

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
 * offending interaction. The same parser as core's record/replay client.
 *
 * @example
 * const cassette = parseCassette(JSON.parse(text), "inline cassette");
 */
export const parseCassette: (value: unknown, origin?: string) => Cassette = recordParseCassette;

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
          (!matchQuery || canonicalQuery(redactedLike(req.query, recordedUrl.searchParams)) === query) &&
          (!matchBody || first.request_json === undefined || jsonEqual(req.json, first.request_json)),
      },
    );
  });
};

/**
 * The live query with the values of parameters recorded as `[REDACTED]` (a key scrubbed out of a
 * recorded tool call) replaced the same way, so any key matches.
 */
const redactedLike = (live: URLSearchParams, recorded: URLSearchParams): URLSearchParams => {
  const out = new URLSearchParams(live);
  for (const [name, value] of recorded) if (value === REDACTED && out.has(name)) out.set(name, REDACTED);
  return out;
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
