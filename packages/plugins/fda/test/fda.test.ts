import { closedUrl, describePluginConformance, describePluginPackage } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import pkg from "../package.json" with { type: "json" };
import fdaPlugin, { createFdaPlugin } from "../src/index.js";
import { dataOf, metaOf, session } from "./support/catalog.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

const { up, rec, fdaCatalog } = useOpenFdaEmulator();

describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(fdaPlugin, {
  options: () => ({ baseUrl: up.url }),
  downOptions: async () => ({ baseUrl: await closedUrl() }),
});

describe("plugin shape", () => {
  it("is a v1 plugin with the FDA tools, a version and a default instance", () => {
    expect(fdaPlugin.id).toBe("fda");
    expect(fdaPlugin.version).toBe(pkg.version);
    expect(fdaPlugin.tools.map((t) => t.name)).toEqual(["fda_search_drugs", "fda_count_drugs"]);
    expect(createFdaPlugin().tools).toEqual(fdaPlugin.tools);
  });

  it("takes createFdaPlugin options as defaults that registration options override", async () => {
    const catalog = fdaCatalog();
    catalog.register(createFdaPlugin({ baseUrl: "http://127.0.0.1:9" }), { baseUrl: up.url });
    expect((await catalog.health("fda")).ok).toBe(true);
    catalog.register(createFdaPlugin({ baseUrl: up.url }));
    expect(await catalog.call("fda_count_drugs", { count_by: "route" }, session)).toMatchObject({
      status: "success",
    });
  });

  it("health reports the data date from openFDA", async () => {
    const catalog = fdaCatalog();
    const report = await catalog.health("fda");
    expect(report.ok).toBe(true);
    expect(report.message).toMatch(/openFDA answered/);
  });
});

describe("fda_search_drugs on the recorded Drugs@FDA records", () => {
  it("searches by active ingredient and returns every application with total_count from meta.results.total", async () => {
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { active_ingredient: "semaglutide" } },
      session,
    );
    expect(r.status).toBe("success");
    const d = dataOf(r);
    expect(d.matches.map((m: any) => m.application_number).sort()).toEqual([
      "NDA209637",
      "NDA213051",
      "NDA215256",
    ]);
    expect(d.total_count).toBe(3);
    expect(d.fully_searched).toBe(true);
    expect(d.query_constraints_met).toBe(true);
    expect(metaOf(r).refinement_suggestions).toEqual([]);
    const rybelsus = d.matches.find((m: any) => m.application_number === "NDA213051");
    expect(rybelsus).toMatchObject({
      sponsor: "NOVO",
      brand_names: ["RYBELSUS"],
      original_approval_date: "2019-09-20",
    });
    expect(metaOf(r).endpoint).toBe("drugsfda");
    expect(rybelsus.url).toContain("ApplNo=213051");
    expect(r.metadata.source).toBe("openFDA /drug/drugsfda.json");
    const sent = up.requestsTo("GET", "/drug/drugsfda.json").at(-1)!;
    expect(sent.query.get("search")).toBe(
      '(products.active_ingredients.name:"semaglutide" OR openfda.substance_name:"semaglutide")',
    );
    expect(sent.query.get("limit")).toBe("10");
  });

  it("says when not every match was returned (fully_searched false) and suggests how to narrow", async () => {
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { active_ingredient: "semaglutide" }, max_results: 2 },
      session,
    );
    const d = dataOf(r);
    expect(d.matches).toHaveLength(2);
    expect(d.total_count).toBe(3);
    expect(d.fully_searched).toBe(false);
    expect(metaOf(r).refinement_suggestions.join(" ")).toMatch(/fda_count_drugs/);
    expect(metaOf(r).refinement_suggestions.join(" ")).toMatch(/route/);
    expect(r.message).toMatch(/partial list/);
  });

  it("searches by brand name, generic name, class, sponsor and route", async () => {
    const catalog = fdaCatalog();
    const apps = async (criteria: Record<string, unknown>) =>
      dataOf(await catalog.call("fda_search_drugs", { search_criteria: criteria, max_results: 20 }, session))
        .matches.map((m: any) => m.application_number)
        .sort();
    expect(await apps({ brand_name: "Ozempic" })).toEqual(["NDA209637"]);
    expect(await apps({ generic_name: "tirzepatide" })).toEqual(["NDA215866"]);
    expect(await apps({ pharmacologic_class: "GLP-1 Receptor Agonist" })).toEqual([
      "NDA209637",
      "NDA213051",
      "NDA215256",
      "NDA215866",
    ]);
    expect(await apps({ sponsor: "Eli Lilly" })).toEqual(["NDA215866"]);
    expect(await apps({ active_ingredient: "semaglutide", route: "oral" })).toEqual(["NDA213051"]);
    expect(await apps({ brand_name: "Gleevec", sponsor: "Novartis" })).toEqual(["NDA021588"]);
  });

  it("filters on the year of original approval, not on any submission in that period", async () => {
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { active_ingredient: "semaglutide", approval_year: { after: 2019, before: 2021 } } },
      session,
    );
    const d = dataOf(r);
    // OZEMPIC (2017) has supplements in 2019-2021, so openFDA returns it as a candidate; it is left out.
    expect(d.matches.map((m: any) => [m.application_number, m.original_approval_date])).toEqual([
      ["NDA213051", "2019-09-20"],
      ["NDA215256", "2021-06-04"],
    ]);
    expect(d.total_count).toBe(2);
    expect(metaOf(r).total_count_exact).toBe(true);
    expect(d.query_constraints_met).toBe(true);
    expect(metaOf(r).query).toContain("submissions.submission_status_date:[20190101 TO 20211231]");
  });

  it("rejects an approval range whose after is later than its before", async () => {
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Ozempic", approval_year: { after: 2022, before: 2010 } } },
      session,
    );
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.suggestion).toContain('"after": 2010');
  });

  it("rejects empty criteria with an example", async () => {
    const r = await fdaCatalog().call("fda_search_drugs", { search_criteria: {} }, session);
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.suggestion).toMatch(/active_ingredient/);
  });

  it("treats openFDA's 404 NOT_FOUND as zero matches, with suggestions to loosen the search", async () => {
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Notarealdrugname", route: "oral" } },
      session,
    );
    expect(r.status).toBe("success");
    const d = dataOf(r);
    expect(d).toMatchObject({ matches: [], total_count: 0, fully_searched: true });
    expect(metaOf(r).refinement_suggestions.join(" ")).toMatch(/generic_name or active_ingredient/);
    expect(metaOf(r).refinement_suggestions.join(" ")).toMatch(/Remove one criterion/);
    expect(r.message).toMatch(/No FDA drugs match/);
    expect(up.requestsTo("GET", "/drug/drugsfda.json").length).toBeGreaterThan(0);
  });

  it("caches a repeated search (no second upstream request)", async () => {
    const catalog = fdaCatalog();
    const before = up.requestsTo("GET", "/drug/drugsfda.json").length;
    await catalog.call("fda_search_drugs", { search_criteria: { brand_name: "Wegovy" } }, session);
    const again = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Wegovy" } },
      session,
    );
    expect(again.metadata.cached).toBe(true);
    expect(up.requestsTo("GET", "/drug/drugsfda.json").length).toBe(before + 1);
  });
});

describe("fda_search_drugs by indication (drug labels)", () => {
  it("searches labels by indication and returns the indication text and a DailyMed link", async () => {
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { indication: "type 2 diabetes" } },
      session,
    );
    const d = dataOf(r);
    expect(metaOf(r).endpoint).toBe("label");
    expect(metaOf(r).query).toBe('indications_and_usage:"type 2 diabetes"');
    expect(d.matches).toHaveLength(1);
    expect(d.matches[0]).toMatchObject({
      application_number: "NDA213051",
      brand_names: ["RYBELSUS"],
    });
    expect(d.matches[0].indication).toMatch(/type 2 diabetes/);
    expect(d.matches[0].url).toMatch(/^https:\/\/dailymed\.nlm\.nih\.gov/);
  });

  it("checks sponsor and approval year of label matches through Drugs@FDA", async () => {
    const catalog = fdaCatalog();
    const inRange = dataOf(
      await catalog.call(
        "fda_search_drugs",
        {
          search_criteria: { indication: "type 2 diabetes", sponsor: "Novo", approval_year: { after: 2019 } },
        },
        session,
      ),
    );
    expect(
      inRange.matches.map((m: any) => [m.application_number, m.sponsor, m.original_approval_date]),
    ).toEqual([["NDA213051", "NOVO", "2019-09-20"]]);
    expect(inRange.query_constraints_met).toBe(true);
    const lookup = up.requestsTo("GET", "/drug/drugsfda.json").at(-1)!;
    expect(lookup.query.get("search")).toBe('application_number:("NDA213051")');
    const outOfRange = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { indication: "type 2 diabetes", approval_year: { before: 2018 } } },
      session,
    );
    expect(dataOf(outOfRange).total_count).toBe(0);
    expect(metaOf(outOfRange).refinement_suggestions.join(" ")).toMatch(/Widen or remove approval_year/);
  });

  it("says query_constraints_met is false when a label has no application to check the sponsor against", async () => {
    // The recorded 2018 label (homeopathic SILICEA) has no application number.
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { indication: "condition listed above", sponsor: "Rxhomeo" } },
      session,
    );
    const d = dataOf(r);
    expect(d.query_constraints_met).toBe(false);
    expect(d.unmet_constraints[0]).toMatch(/sponsor: 1 label\(s\) have no Drugs@FDA application/);
    expect(d.matches).toEqual([]);
  });
});

describe("fda_count_drugs", () => {
  it("uses openFDA count= and returns the buckets", async () => {
    const r = await fdaCatalog().call(
      "fda_count_drugs",
      { search_criteria: { pharmacologic_class: "GLP-1 Receptor Agonist" }, count_by: "sponsor" },
      session,
    );
    expect(r.status).toBe("success");
    const d = dataOf(r);
    expect(d.buckets).toEqual([
      { term: "NOVO", count: 3 },
      { term: "ELI LILLY AND CO", count: 1 },
    ]);
    expect(metaOf(r).field).toBe("sponsor_name");
    const sent = up.requestsTo("GET", "/drug/drugsfda.json").at(-1)!;
    expect(sent.query.get("count")).toBe("sponsor_name");
    expect(sent.query.get("limit")).toBe("20");
    expect(sent.query.has("skip")).toBe(false);
  });

  it("counts labels by route when an indication is given, and everything when no criteria are given", async () => {
    const catalog = fdaCatalog();
    const labels = await catalog.call(
      "fda_count_drugs",
      { search_criteria: { indication: "diabetes" }, count_by: "route" },
      session,
    );
    expect(metaOf(labels).endpoint).toBe("label");
    expect(metaOf(labels).field).toBe("openfda.route.exact");
    expect(dataOf(labels).buckets).toEqual([{ term: "ORAL", count: 1 }]);
    const all = await catalog.call("fda_count_drugs", { count_by: "route" }, session);
    expect(metaOf(all).query).toBe("");
    expect(dataOf(all).buckets[0]).toEqual({ term: "SUBCUTANEOUS", count: 3 });
    expect(up.requestsTo("GET", "/drug/drugsfda.json").at(-1)!.query.has("search")).toBe(false);
  });

  it("answers 'Nothing to count' (404) as zero buckets, not an error", async () => {
    const r = await fdaCatalog().call(
      "fda_count_drugs",
      { search_criteria: { sponsor: "Nobody Pharma" }, count_by: "route" },
      session,
    );
    expect(r.status).toBe("success");
    expect(dataOf(r).buckets).toEqual([]);
    expect(metaOf(r).refinement_suggestions.length).toBeGreaterThan(0);
    expect(r.message).toMatch(/Nothing to count/);
  });

  it("flags an approval-year count as approximate (query_constraints_met false)", async () => {
    const r = await fdaCatalog().call(
      "fda_count_drugs",
      {
        search_criteria: { active_ingredient: "semaglutide", approval_year: { after: 2020 } },
        count_by: "route",
      },
      session,
    );
    expect(dataOf(r).query_constraints_met).toBe(false);
    expect(dataOf(r).unmet_constraints[0]).toMatch(/any submission/);
  });
});

describe("recorded openFDA error bodies", () => {
  it("maps the recorded 400 BAD_REQUEST to invalid_input with openFDA's message", async () => {
    up.fault(
      "GET",
      "/drug/drugsfda.json",
      { kind: "status", status: 400, body: rec.errors.badRequest },
      { times: 1 },
    );
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Ozempic" } },
      session,
    );
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toContain("Sorting allowed by non-analyzed fields only");
  });

  /**
   * openFDA's 500 when Elasticsearch fails without a parse error: ApiError(SERVER_ERROR, 'Check your
   * request and try again') with no details (api.js of github.com/FDA/openfda). The recorded 500
   * (a lexical error) is a parse failure: see openfda-rules.test.ts.
   */
  const outage = { error: { code: "SERVER_ERROR", message: "Check your request and try again" } };

  it("retries a 500 SERVER_ERROR that is not a parse failure and succeeds on the next attempt", async () => {
    up.fault("GET", "/drug/drugsfda.json", { kind: "status", status: 500, body: outage }, { times: 1 });
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Rybelsus" } },
      session,
    );
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
  });

  it("reports a persistent 500 that is not a parse failure as a retryable upstream error", async () => {
    up.fault("GET", "/drug/drugsfda.json", { kind: "status", status: 500, body: outage });
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Wegovy" } },
      session,
    );
    up.clearFaults();
    expect(r.error).toMatchObject({ kind: "upstream", retryable: true });
    expect(r.guidance).toMatch(/openFDA could not be reached/);
  });

  it("treats a 404 without openFDA's NOT_FOUND body as an upstream error, not as zero matches", async () => {
    up.fault(
      "GET",
      "/drug/drugsfda.json",
      { kind: "status", status: 404, body: { error: "no route" } },
      { times: 1 },
    );
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Mounjaro" } },
      session,
    );
    expect(r.error?.kind).toBe("upstream");
    expect(r.suggestion).toMatch(/baseUrl/);
  });
});
