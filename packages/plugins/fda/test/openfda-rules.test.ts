import { describe, expect, it } from "vitest";
import { FIELDS, SUBMISSION_DATE_FIELD, UPPER_CASE_KEYWORDS } from "../src/internal/query.js";
import { dataOf, metaOf, session } from "./support/catalog.js";
import { fieldKind, SUPPORTED_SEARCH } from "./support/openfda-definitions.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

const openfda = useOpenFdaEmulator();

/** One fda_search_drugs call on a fresh catalog. */
const search = (criteria: Record<string, unknown>) =>
  openfda.fdaCatalog().call("fda_search_drugs", { search_criteria: criteria }, session);

const get = async (path: string, search: string) => {
  const res = await fetch(`${openfda.up.url}${path}?search=${encodeURIComponent(search)}&limit=10`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe("the openFDA emulator enforces what openFDA's server does", () => {
  it("refuses a search with a character outside openFDA's SUPPORTED_QUERY_RE with its 400 body", async () => {
    for (const refused of ["Ozempic®", "Sjögren", "what?", "hi!", "#1", "a;b", "Mounjaro™"]) {
      const search = `openfda.brand_name:"${refused}"`;
      const { status, body } = await get("/drug/drugsfda.json", search);
      expect(status, refused).toBe(400);
      expect(body).toEqual({
        error: {
          code: "BAD_REQUEST",
          message: `Search not supported: ${search.replace(/"/g, "&quot;")}`,
        },
      });
    }
    expect((await get("/drug/drugsfda.json", 'openfda.brand_name:"OZEMPIC"')).status).toBe(200);
  });

  it("matches a keyword field only on the exact stored value, and a text field on its analysed words", async () => {
    expect((await get("/drug/drugsfda.json", 'sponsor_name:"Novo Nordisk"')).body).toEqual(
      openfda.rec.errors.notFound,
    );
    expect((await get("/drug/drugsfda.json", 'sponsor_name:"novo"')).status).toBe(404);
    expect((await get("/drug/drugsfda.json", 'sponsor_name:"NOVO"')).body.meta.results.total).toBe(3);
    expect(
      (await get("/drug/drugsfda.json", 'openfda.manufacturer_name:"novo NORDISK"')).body.meta.results.total,
    ).toBe(3);
    expect((await get("/drug/drugsfda.json", 'openfda.brand_name.exact:"Ozempic"')).status).toBe(404);
    expect((await get("/drug/drugsfda.json", 'openfda.brand_name.exact:"OZEMPIC"')).status).toBe(200);
  });

  it("answers a search it cannot parse with openFDA's recorded 500 SERVER_ERROR body", async () => {
    const { status, body } = await get("/drug/drugsfda.json", 'openfda.brand_name:"verapamil""');
    expect(status).toBe(500);
    expect(body).toEqual(openfda.rec.errors.serverError);
    expect(body.error.details).toMatch(/Lexical error/);
  });

  it("knows every field the plugin searches, and the plugin upper-cases exactly the keyword ones", () => {
    for (const endpoint of ["drugsfda", "label"] as const) {
      for (const fields of Object.values(FIELDS[endpoint])) {
        for (const field of fields) {
          const kind = fieldKind(endpoint, field);
          expect(kind, `${endpoint} ${field}`).toMatch(/^(text|keyword)$/);
          expect(UPPER_CASE_KEYWORDS.has(field), `${endpoint} ${field}`).toBe(kind === "keyword");
        }
      }
    }
    expect(fieldKind("drugsfda", SUBMISSION_DATE_FIELD)).toBe("date");
    expect(fieldKind("drugsfda", "application_number")).toBe("keyword");
  });
});

describe("sponsor: searched where openFDA can match the name people use", () => {
  it('finds Novo Nordisk\'s applications although Drugs@FDA stores the sponsor as "NOVO", and says which fields matched', async () => {
    const r = await search({ sponsor: "Novo Nordisk" });
    expect(r.status).toBe("success");
    const d = dataOf(r);
    expect(d.matches.map((m: any) => m.application_number).sort()).toEqual([
      "NDA209637",
      "NDA213051",
      "NDA215256",
    ]);
    for (const m of d.matches) expect(m).toMatchObject({ sponsor: "NOVO", labeler: "Novo Nordisk" });
    expect(metaOf(r).searched_fields).toEqual({ sponsor: ["sponsor_name", "openfda.manufacturer_name"] });
    expect(metaOf(r).query).toBe('(sponsor_name:"NOVO NORDISK" OR openfda.manufacturer_name:"Novo Nordisk")');
  });

  it("finds a sponsor given as Drugs@FDA stores it, in any case, on a record without an openfda block", async () => {
    const r = await search({ sponsor: "novartis" });
    expect(dataOf(r).matches.map((m: any) => m.application_number)).toEqual(["NDA021588"]);
  });

  it("counts by route for a sponsor named as people name it", async () => {
    const r = await openfda
      .fdaCatalog()
      .call(
        "fda_count_drugs",
        { search_criteria: { sponsor: "Eli Lilly and Company" }, count_by: "route" },
        session,
      );
    expect(r.status).toBe("success");
    expect(dataOf(r).buckets).toEqual([{ term: "SUBCUTANEOUS", count: 1 }]);
    expect(metaOf(r).searched_fields.sponsor).toEqual(["sponsor_name", "openfda.manufacturer_name"]);
  });

  it("keeps a label whose Drugs@FDA application is Novo Nordisk's when the sponsor is checked after the label search", async () => {
    const r = await search({ indication: "type 2 diabetes", sponsor: "Novo Nordisk" });
    expect(r.status).toBe("success");
    const d = dataOf(r);
    expect(d.matches.map((m: any) => [m.application_number, m.sponsor])).toEqual([["NDA213051", "NOVO"]]);
    expect(metaOf(r).searched_fields.sponsor).toEqual(["sponsor_name", "openfda.manufacturer_name"]);
  });
});

describe("characters openFDA refuses never reach it", () => {
  it("searches Ozempic® and Mounjaro™ as their names", async () => {
    const catalog = openfda.fdaCatalog();
    for (const [brand, app] of [
      ["Ozempic®", "NDA209637"],
      ["Mounjaro™", "NDA215866"],
    ] as const) {
      const r = await catalog.call("fda_search_drugs", { search_criteria: { brand_name: brand } }, session);
      expect(r.status, r.message).toBe("success");
      expect(dataOf(r).matches.map((m: any) => m.application_number)).toEqual([app]);
    }
  });

  it("searches an accented indication (Sjögren's) in ASCII letters, and answers no match rather than an error", async () => {
    const before = openfda.up.requests.length;
    const r = await search({ indication: "Sjögren's syndrome?", sponsor: "Laboratoires Thea #1" });
    expect(r.status, r.message).toBe("success");
    expect(dataOf(r).total_count).toBe(0);
    const sent = openfda.up.requests.slice(before).map((q) => q.query.get("search")!);
    expect(sent).toEqual(['indications_and_usage:"Sjogren\'s syndrome"']);
    for (const s of sent) expect(SUPPORTED_SEARCH.test(s), s).toBe(true);
  });

  it("counts with accents, symbols and punctuation in every criterion without a 400", async () => {
    const r = await openfda.fdaCatalog().call(
      "fda_count_drugs",
      {
        search_criteria: { active_ingredient: "sémaglutide", route: "oral!", sponsor: "Novo Nordisk®" },
        count_by: "brand_name",
      },
      session,
    );
    expect(r.status, r.message).toBe("success");
    expect(dataOf(r).buckets).toEqual([{ term: "RYBELSUS", count: 1 }]);
  });
});

describe("a search openFDA cannot parse (HTTP 500 SERVER_ERROR) is not an outage", () => {
  it("fails at once as invalid input, not retryable, and never sends the same search again", async () => {
    openfda.up.fault("GET", "/drug/drugsfda.json", {
      kind: "status",
      status: 500,
      body: openfda.rec.errors.serverError,
    });
    const catalog = openfda.fdaCatalog({}, { policies: { "*": { cache: false } } });
    const before = openfda.up.requestsTo("GET", "/drug/drugsfda.json").length;
    const r = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Verapamil" } },
      session,
    );
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({ kind: "invalid_input", retryable: false });
    expect(r.message).toMatch(/could not parse/);
    expect(r.message).toMatch(/Lexical error/);
    expect(r.metadata.attempts).toBe(1);
    expect(openfda.up.requestsTo("GET", "/drug/drugsfda.json").length - before).toBe(1);
    openfda.up.clearFaults();
    const again = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Verapamil" } },
      session,
    );
    expect(again.error?.kind).toBe("invalid_input");
    expect(openfda.up.requestsTo("GET", "/drug/drugsfda.json").length - before).toBe(1);
  });

  it("still retries a 500 whose body says nothing of parsing (an outage)", async () => {
    openfda.up.fault(
      "GET",
      "/drug/drugsfda.json",
      {
        kind: "status",
        status: 500,
        body: {
          error: {
            code: "SERVER_ERROR",
            message: "Check your request and try again",
            details: "No Living connections",
          },
        },
      },
      { times: 1 },
    );
    const r = await search({ brand_name: "Ozempic" });
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
  });
});
