import { type Emulator, loadJson, startEmulator } from "@quiver/testing";
import {
  type EmulatedEndpoint,
  EXPECTED_PARAMS,
  fieldKind,
  MAX_SEARCH_LIMIT,
  SUPPORTED_SEARCH,
  searchNotSupported,
} from "./openfda-definitions.js";
import { type Group, matches, parseSearch, valuesAt } from "./openfda-query.js";

type Json = Record<string, unknown>;
interface Page {
  readonly meta: Json & { results?: Json };
  readonly results: Json[];
}

const data = (...parts: string[]) => new URL(`../fixtures/${parts.join("/")}`, import.meta.url);

/** The recorded openFDA responses this emulator serves from (see test/fixtures/SOURCE.md). */
export const recorded = () => {
  const page1 = loadJson(data("drugsfda", "drugsfda_semaglutide_limit2_page1.json")) as Page;
  const page2 = loadJson(data("drugsfda", "drugsfda_semaglutide_limit2_page2.json")) as Page;
  const tirzepatide = loadJson(data("drugsfda", "drugsfda_tirzepatide_limit1.json")) as Page;
  const imatinib = loadJson(data("biomcp-minimized", "drugsfda_imatinib_20260811.json")) as Page;
  const label2018 = loadJson(data("label", "label_limit1_2018-04-04.json")) as Page;
  const keytruda = loadJson(data("biomcp-minimized", "label_keytruda_20260811.json")) as Page;
  const notFound = loadJson(data("errors", "error_404_not_found.json")) as Json;
  const badRequest = loadJson(data("errors", "error_400_bad_sort.json")) as Json;
  const keyInvalid = loadJson(data("errors", "error_403_api_key_invalid.json")) as Json;
  const serverError = loadJson(data("errors", "error_500_lexical_error.json")) as Json;
  const rybelsus = page1.results[0]!;
  /**
   * Not recorded: a prescription label for RYBELSUS built from the recorded Drugs@FDA `openfda` block
   * of NDA213051 plus an Indications and Usage text (no full Rx label response is public; shape per
   * apis.md 3.5). It lets the label → Drugs@FDA cross-check be tested.
   */
  const rybelsusLabel: Json = {
    id: "synthetic-rybelsus-label",
    set_id: (rybelsus.openfda as Json).spl_set_id
      ? ((rybelsus.openfda as Json).spl_set_id as string[])[0]
      : "synthetic",
    effective_time: "20240115",
    indications_and_usage: [
      "1 INDICATIONS AND USAGE RYBELSUS is indicated as an adjunct to diet and exercise to improve glycemic control in adults with type 2 diabetes mellitus.",
    ],
    openfda: rybelsus.openfda,
  };
  return {
    drugsfda: [...page1.results, ...page2.results, ...tirzepatide.results, ...imatinib.results],
    labels: [...label2018.results, ...keytruda.results, rybelsusLabel],
    meta: page1.meta,
    labelMeta: label2018.meta,
    errors: { notFound, badRequest, keyInvalid, serverError },
  };
};

/** The recorded bodies, loaded once. */
export type Recorded = ReturnType<typeof recorded>;

/**
 * Starts an openFDA emulator built from openFDA's own server (see openfda-definitions.ts):
 * `/drug/drugsfda.json` and `/drug/label.json` refuse a `search` with a character openFDA refuses
 * (its 400 "Search not supported" body), answer a search the strict test parser cannot read with
 * openFDA's recorded 500 SERVER_ERROR (a query Elasticsearch could not parse), match `keyword`
 * fields exactly and `text` fields by analysed words over the recorded records, answer `count=` by
 * grouping, honour `limit`, and answer no match with the recorded 404 NOT_FOUND body. Unknown
 * parameters get openFDA's 400 `Invalid parameter`.
 */
export const startOpenFdaEmulator = async (): Promise<{ up: Emulator; rec: Recorded }> => {
  const up = await startEmulator();
  const rec = recorded();
  const serve =
    (endpoint: EmulatedEndpoint, corpus: ReadonlyArray<Json>, meta: Json) =>
    (req: { query: URLSearchParams }) => {
      for (const name of req.query.keys()) {
        if (!EXPECTED_PARAMS.includes(name)) {
          return {
            status: 400,
            json: { error: { code: "BAD_REQUEST", message: `Invalid parameter: ${name}` } },
          };
        }
      }
      // openFDA trims every parameter before it looks at it.
      const search = req.query.get("search")?.trim();
      if (search && !SUPPORTED_SEARCH.test(search)) return searchNotSupported(search);
      let groups: Group[] = [];
      try {
        groups = search ? parseSearch(search) : [];
      } catch {
        return { status: 500, json: rec.errors.serverError };
      }
      const hits = corpus.filter((r) => matches(r, groups, (field) => fieldKind(endpoint, field)));
      const count = req.query.get("count");
      const limit = Number(req.query.get("limit") ?? (count ? 100 : 1));
      if (!count && limit > MAX_SEARCH_LIMIT) {
        return {
          status: 400,
          json: {
            error: {
              code: "BAD_REQUEST",
              message:
                "Limit cannot exceed 1000 results for search requests. Use the skip or search_after param to get additional results.",
            },
          },
        };
      }
      if (count) {
        const tally = new Map<string, number>();
        for (const r of hits)
          for (const v of new Set(valuesAt(r, count.replace(/\.exact$/, "")).map(String)))
            tally.set(v, (tally.get(v) ?? 0) + 1);
        if (tally.size === 0)
          return { status: 404, json: { error: { code: "NOT_FOUND", message: "Nothing to count" } } };
        const results = [...tally]
          .sort((a, b) => b[1] - a[1])
          .slice(0, limit)
          .map(([term, n]) => ({ term, count: n }));
        const { results: _drop, ...countMeta } = meta as Json & { results?: unknown };
        return { json: { meta: countMeta, results } };
      }
      if (hits.length === 0) return { status: 404, json: rec.errors.notFound };
      return {
        json: {
          meta: { ...meta, results: { skip: 0, limit, total: hits.length } },
          results: hits.slice(0, limit),
        },
      };
    };
  up.route("GET", "/drug/drugsfda.json", serve("drugsfda", rec.drugsfda, rec.meta));
  up.route("GET", "/drug/label.json", serve("label", rec.labels, rec.labelMeta));
  return { up, rec };
};
