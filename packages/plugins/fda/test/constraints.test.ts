import { seededRandom } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { KNOWN_CRITERIA } from "../src/internal/criteria.js";
import { dataOf, metaOf, session } from "./support/catalog.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

// The co-scientist interface: databases MUST honour every specified constraint and say which
// failed. A criterion openFDA cannot filter on (given in other_criteria) is reported, never dropped
// in silence; a key search_criteria does not know is refused, pointing at other_criteria.

const { up, fdaCatalog } = useOpenFdaEmulator();

const noLimits = { policies: { "*": { rateLimit: false, cache: false } } } as const;

describe("criteria openFDA cannot apply", () => {
  it("answers partial with mechanism in unmet_constraints and query_constraints_met false", async () => {
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      {
        search_criteria: {
          active_ingredient: "semaglutide",
          other_criteria: [{ field: "mechanism", value: "SGLT2 inhibitor" }],
        },
      },
      session,
    );
    expect(r.status).toBe("partial");
    const d = dataOf(r);
    expect(d.query_constraints_met).toBe(false);
    expect(d.unmet_constraints).toHaveLength(1);
    expect(d.unmet_constraints[0]).toMatch(
      /^mechanism: openFDA cannot filter on "mechanism" \("SGLT2 inhibitor"\)/,
    );
    expect(d.unmet_constraints[0]).toContain("closest: pharmacologic_class");
    expect(d.matches.length).toBeGreaterThan(0);
    expect(r.message).toMatch(/see unmet_constraints/);
  });

  it("counts partially too, naming the criterion not applied", async () => {
    const r = await fdaCatalog().call(
      "fda_count_drugs",
      {
        search_criteria: {
          active_ingredient: "semaglutide",
          other_criteria: [{ field: "dosage", value: "7 mg" }],
        },
        count_by: "route",
      },
      session,
    );
    expect(r.status).toBe("partial");
    expect(dataOf(r).query_constraints_met).toBe(false);
    expect(dataOf(r).unmet_constraints[0]).toMatch(/^dosage: /);
  });

  it("refuses criteria of which none can be applied, naming the accepted keys and the closest", async () => {
    const before = up.requests.length;
    for (const [tool, extra] of [
      ["fda_search_drugs", {}],
      ["fda_count_drugs", { count_by: "route" }],
    ] as const) {
      const criteria = { other_criteria: [{ field: "sponsr", value: "Novo" }] };
      const r = await fdaCatalog().call(tool, { search_criteria: criteria, ...extra }, session);
      expect(r.status, tool).toBe("error");
      expect(r.error?.kind).toBe("invalid_input");
      expect(r.message).toContain('"sponsr" cannot be applied');
      expect(r.suggestion).toContain(KNOWN_CRITERIA.join(", "));
      expect(r.suggestion).toContain('closest to "sponsr": sponsor');
    }
    expect(up.requests.length).toBe(before);
  });

  it("refuses a key search_criteria has no field for, naming other_criteria, before any request", async () => {
    const before = up.requests.length;
    const r = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { active_ingredient: "semaglutide", mechanism: "SGLT2 inhibitor" } },
      session,
    );
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toMatch(/search_criteria\.mechanism: unknown field; known fields are .*other_criteria/);
    const misplaced = await fdaCatalog().call(
      "fda_search_drugs",
      { search_criteria: { other_criteria: [{ field: "route", value: "oral" }] } },
      session,
    );
    expect(misplaced.error?.kind).toBe("invalid_input");
    expect(misplaced.suggestion).toBe("Give it as search_criteria.route instead.");
    expect(up.requests.length).toBe(before);
  });

  it("refuses unknown keys in approval_year and at the top level with the accepted keys", async () => {
    const catalog = fdaCatalog();
    const year = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { active_ingredient: "semaglutide", approval_year: { from: 2020 } } },
      session,
    );
    expect(year.status).toBe("error");
    expect(year.error?.kind).toBe("invalid_input");
    expect(JSON.stringify(year.error)).toMatch(/approval_year\.from/);
    expect(JSON.stringify(year.error)).toMatch(/after, before/);
    const top = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { active_ingredient: "semaglutide" }, max_result: 3 },
      session,
    );
    expect(top.status).toBe("error");
    expect(top.error?.kind).toBe("invalid_input");
    expect(JSON.stringify(top.error)).toContain("max_results");
  });
});

const VALUES = ["semaglutide", "Novo", "oral", "Kinase Inhibitor", "ozempic", "type 2 diabetes"];
const TEXT = KNOWN_CRITERIA.filter((k) => k !== "approval_year");
const LETTERS = "abcdefghijklmnopqrstuvwxyz_";

describe("property: every criterion the tool cannot apply appears in the envelope", () => {
  it("random known and unknown criteria: unknown ones are in unmet_constraints or in the refusal", async () => {
    const seed = Number(process.env.FDA_PROPERTY_SEED ?? 20_261_124);
    console.log(`property seed ${seed} (set FDA_PROPERTY_SEED to replay)`);
    const r = seededRandom(seed);
    const catalog = fdaCatalog({}, noLimits);
    for (let run = 0; run < 150; run++) {
      const criteria: Record<string, unknown> = {};
      for (const k of TEXT) if (r.next() < 0.2) criteria[k] = r.pick(VALUES);
      if (r.next() < 0.2) criteria.approval_year = { after: 2000 + r.int(25) };
      const unknown: string[] = [];
      const n = r.int(3);
      for (let i = 0; i < n; i++) {
        let key = "";
        for (let j = 0, len = 3 + r.int(10); j < len; j++) key += r.pick([...LETTERS]);
        if (KNOWN_CRITERIA.includes(key) || unknown.includes(key)) continue;
        unknown.push(key);
        const value = r.next() < 0.5 ? r.pick(VALUES) : JSON.stringify({ nested: r.int(100) });
        criteria.other_criteria = [...((criteria.other_criteria as unknown[]) ?? []), { field: key, value }];
      }
      if (Object.keys(criteria).length === 0) continue;
      const tool = r.next() < 0.5 ? "fda_search_drugs" : "fda_count_drugs";
      const input =
        tool === "fda_search_drugs"
          ? { search_criteria: criteria }
          : { search_criteria: criteria, count_by: "route" };
      const result = await catalog.call(tool, input, session);
      const context = `run ${run} ${tool} ${JSON.stringify(criteria)} → ${result.status}: ${result.message}`;
      const known = Object.keys(criteria).filter((k) => k !== "other_criteria");
      if (known.length === 0) {
        expect(result.status, context).toBe("error");
        expect(result.error?.kind, context).toBe("invalid_input");
        for (const k of unknown) expect(result.message, context).toContain(`"${k}"`);
        continue;
      }
      if (result.status === "error") continue; // an upstream refusal of a known value, not this property
      const d = dataOf(result);
      for (const k of unknown) {
        expect(
          d.unmet_constraints.some((u: string) => u.startsWith(`${k}: `)),
          context,
        ).toBe(true);
      }
      if (unknown.length > 0) {
        expect(d.query_constraints_met, context).toBe(false);
        expect(result.status, context).toBe("partial");
      }
      expect(d.query_constraints_met, context).toBe(d.unmet_constraints.length === 0);
      expect(JSON.stringify(metaOf(result).query), context).not.toMatch(
        new RegExp(unknown.map((k) => `\\b${k}\\b`).join("|") || "^$"),
      );
    }
  }, 60_000);
});
