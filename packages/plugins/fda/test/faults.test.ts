import {
  describeFaultMatrix,
  FAULT_KINDS,
  type FaultExpectation,
  MATRIX_EXPECTATIONS,
} from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createFdaPlugin } from "../src/index.js";
import { dataOf, session } from "./support/catalog.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

const { up, fdaCatalog } = useOpenFdaEmulator();

/** The shared expectations, plus: a success still meets the query, and every failure tells the model what to do. */
const EXPECT = Object.fromEntries(
  FAULT_KINDS.map((kind): [string, FaultExpectation] => {
    const want = MATRIX_EXPECTATIONS[kind];
    return [
      kind,
      want.status === "success"
        ? { ...want, check: (r) => expect(dataOf(r).query_constraints_met).toBe(true) }
        : { ...want, guidance: true },
    ];
  }),
);

describeFaultMatrix({
  name: "every fault kind on every openFDA request path",
  emulator: () => up,
  plugin: createFdaPlugin,
  settings: (up) => ({ baseUrl: up.url }),
  session,
  expect: EXPECT,
  calls: [
    {
      name: "search (drugsfda)",
      method: "GET",
      path: "/drug/drugsfda.json",
      tool: "fda_search_drugs",
      input: { search_criteria: { brand_name: "Ozempic" } },
    },
    {
      name: "search (label)",
      method: "GET",
      path: "/drug/label.json",
      tool: "fda_search_drugs",
      input: { search_criteria: { indication: "type 2 diabetes" } },
    },
    {
      name: "search (label, then the Drugs@FDA check)",
      method: "GET",
      path: "/drug/drugsfda.json",
      tool: "fda_search_drugs",
      input: { search_criteria: { indication: "type 2 diabetes", sponsor: "Novo" } },
    },
    {
      name: "count (drugsfda)",
      method: "GET",
      path: "/drug/drugsfda.json",
      tool: "fda_count_drugs",
      input: { search_criteria: { active_ingredient: "semaglutide" }, count_by: "sponsor" },
    },
    {
      name: "count (label)",
      method: "GET",
      path: "/drug/label.json",
      tool: "fda_count_drugs",
      input: { search_criteria: { indication: "diabetes" }, count_by: "route" },
    },
  ],
});

describe("openFDA failures beyond one call", () => {
  it("recovers on retry from a one-off reset", async () => {
    up.fault("GET", "/drug/drugsfda.json", { kind: "reset" }, { times: 1 });
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Wegovy" } },
      session,
    );
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
  });

  it("opens the circuit after repeated upstream failures and stops calling openFDA", async () => {
    up.fault("GET", "/drug/drugsfda.json", { kind: "status", status: 502 });
    const catalog = fdaCatalog({}, { policies: { "*": { retry: false } } });
    for (let i = 0; i < 5; i++)
      await catalog.call("fda_search_drugs", { search_criteria: { brand_name: `Drug${i}` } }, session);
    const before = up.requestsTo("GET", "/drug/drugsfda.json").length;
    const r = await catalog.call("fda_count_drugs", { count_by: "route" }, session);
    expect(r.status).toBe("unavailable");
    expect(up.requestsTo("GET", "/drug/drugsfda.json").length).toBe(before);
  });
});
