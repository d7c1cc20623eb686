import { type Emulator, FAULT_KINDS, type Fault, type FaultKind } from "@quiver/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dataOf, fdaCatalog, session } from "./support/catalog.js";
import { startOpenFdaEmulator } from "./support/openfda-emulator.js";

let up: Emulator;
beforeAll(async () => {
  ({ up } = await startOpenFdaEmulator());
});
afterEach(() => up.clearFaults());
afterAll(async () => {
  await up.close();
});

/** Every HTTP path of the openFDA client: the request that gets the fault, and the call that makes it. */
const PATHS = [
  {
    name: "search (drugsfda)",
    path: "/drug/drugsfda.json",
    tool: "fda_search_drugs",
    input: { search_criteria: { brand_name: "Ozempic" } },
  },
  {
    name: "search (label)",
    path: "/drug/label.json",
    tool: "fda_search_drugs",
    input: { search_criteria: { indication: "type 2 diabetes" } },
  },
  {
    name: "search (label, then the Drugs@FDA check)",
    path: "/drug/drugsfda.json",
    tool: "fda_search_drugs",
    input: { search_criteria: { indication: "type 2 diabetes", sponsor: "Novo" } },
  },
  {
    name: "count (drugsfda)",
    path: "/drug/drugsfda.json",
    tool: "fda_count_drugs",
    input: { search_criteria: { active_ingredient: "semaglutide" }, count_by: "sponsor" },
  },
  {
    name: "count (label)",
    path: "/drug/label.json",
    tool: "fda_count_drugs",
    input: { search_criteria: { indication: "diabetes" }, count_by: "route" },
  },
] as const;

/** The fault, and the envelope it must produce. */
const CASES: Record<
  FaultKind,
  { fault: Fault; status: string; kind?: string; retryable?: boolean; message?: RegExp }
> = {
  delay: { fault: { kind: "delay", ms: 150 }, status: "success" },
  hang: { fault: { kind: "hang" }, status: "timeout", kind: "timeout" },
  slowBody: { fault: { kind: "slowBody", chunkBytes: 1024, intervalMs: 2 }, status: "success" },
  reset: { fault: { kind: "reset" }, status: "unavailable", kind: "unavailable", retryable: true },
  status: {
    fault: { kind: "status", status: 503, retryAfter: 1 },
    status: "error",
    kind: "upstream",
    retryable: true,
    message: /503/,
  },
  invalidJson: { fault: { kind: "invalidJson" }, status: "error", kind: "upstream", message: /invalid JSON/ },
  htmlError: {
    fault: { kind: "htmlError", status: 200 },
    status: "error",
    kind: "upstream",
    retryable: false,
    message: /HTML/,
  },
  oversized: { fault: { kind: "oversized", bytes: 6 * 1024 * 1024 }, status: "error", kind: "upstream" },
  wrongContentType: { fault: { kind: "wrongContentType", contentType: "text/plain" }, status: "success" },
};

describe("every fault kind on every openFDA request path", () => {
  for (const p of PATHS) {
    describe(p.name, () => {
      it.each(FAULT_KINDS)("%s", async (kind) => {
        const c = CASES[kind];
        const fault = up.fault("GET", p.path, c.fault);
        const catalog = fdaCatalog(
          { baseUrl: up.url },
          { policies: { "*": { timeout: "1500ms", retry: { times: 1, base: "10ms" } } } },
        );
        const r = await catalog.call(p.tool, p.input, session);
        expect(fault.hits, "the fault fired").toBeGreaterThan(0);
        expect(r.status, r.message).toBe(c.status);
        if (c.kind) expect(r.error?.kind).toBe(c.kind);
        if (c.retryable !== undefined) expect(r.error?.retryable).toBe(c.retryable);
        if (c.message) expect(r.message).toMatch(c.message);
        if (c.status === "success") expect(dataOf(r).query_constraints_met).toBe(true);
        else expect(r.guidance ?? r.suggestion, "the model is told what to do").toBeTruthy();
      });
    });
  }

  it("recovers on retry from a one-off reset", async () => {
    up.fault("GET", "/drug/drugsfda.json", { kind: "reset" }, { times: 1 });
    const r = await fdaCatalog({ baseUrl: up.url }).call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Wegovy" } },
      session,
    );
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
  });

  it("opens the circuit after repeated upstream failures and stops calling openFDA", async () => {
    up.fault("GET", "/drug/drugsfda.json", { kind: "status", status: 502 });
    const catalog = fdaCatalog({ baseUrl: up.url }, { policies: { "*": { retry: false } } });
    for (let i = 0; i < 5; i++)
      await catalog.call("fda_search_drugs", { search_criteria: { brand_name: `Drug${i}` } }, session);
    const before = up.requestsTo("GET", "/drug/drugsfda.json").length;
    const r = await catalog.call("fda_count_drugs", { count_by: "route" }, session);
    expect(r.status).toBe("unavailable");
    expect(up.requestsTo("GET", "/drug/drugsfda.json").length).toBe(before);
  });
});
