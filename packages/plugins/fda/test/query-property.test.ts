import { type SeededRandom, seededRandom } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { FIELDS, SUBMISSION_DATE_FIELD } from "../src/internal/query.js";
import { dataOf, metaOf, session } from "./support/catalog.js";
import { SUPPORTED_SEARCH } from "./support/openfda-definitions.js";
import { parseSearch } from "./support/openfda-query.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

const { up, fdaCatalog } = useOpenFdaEmulator();

/** Pieces that would change a query's structure if they were not quoted. */
const NASTY = [
  '"',
  "+",
  ":",
  "(",
  ")",
  " AND ",
  " OR ",
  "AND",
  "OR",
  "*",
  "\\",
  "[",
  "]",
  "TO",
  "NOT",
  "-",
  "_exists_:",
  "&",
  "=",
  "%22",
  '\\"',
  "  ",
  "\t",
  // Characters openFDA refuses in a search (400 "Search not supported").
  "®",
  "™",
  "?",
  "!",
  "#",
  ";",
  "~",
  "|",
];
const WORDS = [
  "semaglutide",
  "ozempic",
  "novo",
  "oral",
  "kinase",
  "inhibitor",
  "x",
  "2019",
  "é",
  "ß",
  "Sjögren",
];

const randomValue = (r: SeededRandom): string => {
  const parts: string[] = [];
  const n = 1 + r.int(6);
  for (let i = 0; i < n; i++) parts.push(r.next() < 0.6 ? r.pick(NASTY) : r.pick(WORDS));
  if (!parts.some((p) => /[a-zß-ü0-9]/i.test(p))) parts.push(r.pick(WORDS));
  return parts.join(r.next() < 0.5 ? "" : " ").slice(0, 150);
};

/**
 * The phrase the value must become: accents dropped and `ß` spelt `ss`, every other character
 * openFDA refuses a space, quotes and backslashes dropped, whitespace collapsed; on an upper-case keyword field
 * (sponsor_name) in upper case.
 */
const expectedPhrase = (v: string, field: string) => {
  const p = v
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .replace(/./gsu, (c) => (SUPPORTED_SEARCH.test(c) ? c : " "))
    .replace(/["\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return field === "sponsor_name" ? p.toUpperCase() : p;
};

const TEXT = [
  "indication",
  "active_ingredient",
  "brand_name",
  "generic_name",
  "pharmacologic_class",
  "sponsor",
  "route",
] as const;

describe("property: user values never change the structure of the openFDA query", () => {
  it("random values full of quotes, operators, parentheses, wildcards and backslashes stay inside one quoted phrase", async () => {
    const seed = Number(process.env.FDA_PROPERTY_SEED ?? 20_260_811);
    console.log(`property seed ${seed} (set FDA_PROPERTY_SEED to replay)`);
    const r = seededRandom(seed);
    const catalog = fdaCatalog({}, { policies: { "*": { rateLimit: false, cache: false } } });
    const RUNS = 300;
    let checked = 0;
    for (let run = 0; run < RUNS; run++) {
      const criteria: Record<string, unknown> = {};
      for (const k of TEXT) if (r.next() < 0.35) criteria[k] = randomValue(r);
      if (Object.keys(criteria).length === 0) criteria[r.pick(TEXT)] = randomValue(r);
      if (r.next() < 0.3) criteria.approval_year = { after: 1990 + r.int(20), before: 2010 + r.int(15) };
      const tool = r.next() < 0.5 ? "fda_search_drugs" : "fda_count_drugs";
      const input =
        tool === "fda_search_drugs"
          ? { search_criteria: criteria }
          : { search_criteria: criteria, count_by: "route" };
      const before = up.requests.length;
      const result = await catalog.call(tool, input, session);
      const context = `run ${run} ${tool} ${JSON.stringify(criteria)} → ${result.status}: ${result.message}`;
      expect(["success", "partial", "error"], context).toContain(result.status);
      if (result.status === "error") {
        // Only the declared refusal: a value with nothing to search for.
        expect(result.error?.kind, context).toBe("invalid_input");
        expect(result.message, context).toMatch(/no letters or digits/);
        continue;
      }
      const endpoint = criteria.indication !== undefined ? "label" : "drugsfda";
      const first = up.requests[before]!;
      expect(first.path, context).toBe(`/drug/${endpoint}.json`);
      const search = first.query.get("search")!;
      expect(metaOf(result).query, context).toBe(search);
      const groups = parseSearch(search); // throws on anything outside the grammar
      const expected: Array<{ fields: string[]; value?: string }> = [];
      for (const [criterion, fields] of Object.entries(FIELDS[endpoint])) {
        const v = criteria[criterion];
        if (typeof v === "string") expected.push({ fields: [...fields], value: v.trim() });
      }
      if (criteria.approval_year && endpoint === "drugsfda")
        expected.push({ fields: [SUBMISSION_DATE_FIELD] });
      expect(groups.length, context).toBe(expected.length);
      groups.forEach((group, gi) => {
        const want = expected[gi]!;
        expect(
          group.map((t) => t.field),
          context,
        ).toEqual(want.fields);
        for (const term of group) {
          if (want.value === undefined) {
            expect(term.kind, context).toBe("range");
            continue;
          }
          expect(term, context).toEqual({
            field: term.field,
            kind: "phrase",
            values: [expectedPhrase(want.value, term.field)],
          });
        }
      });
      // Nothing else was sent: only openFDA's own parameters.
      for (const name of first.query.keys()) expect(["search", "limit", "count"], context).toContain(name);
      checked++;
    }
    expect(checked).toBeGreaterThan(RUNS * 0.8);
  });

  it("keeps a value that is only operators from becoming a query of its own", async () => {
    const catalog = fdaCatalog();
    const r = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { brand_name: '") OR (_exists_:id' } },
      session,
    );
    expect(r.status).toBe("success");
    const search = up.requestsTo("GET", "/drug/drugsfda.json").at(-1)!.query.get("search")!;
    expect(search).toBe(
      '(products.brand_name:") OR ( exists :id" OR openfda.brand_name:") OR ( exists :id")'.replace(
        / exists /g,
        "_exists_",
      ),
    );
    expect(parseSearch(search)).toHaveLength(1);
    expect(dataOf(r).total_count).toBe(0);
  });

  it("refuses a value with nothing to search for instead of sending an empty phrase", async () => {
    const r = await fdaCatalog().call("fda_search_drugs", { search_criteria: { sponsor: '"\\"' } }, session);
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toContain("search_criteria.sponsor");
  });
});
