import { gzipSync } from "node:zlib";
import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createFdaPlugin } from "../src/index.js";
import { labelSections, labelTitle } from "../views/drugs/label.js";
import { sortMatches, statusLine } from "../views/drugs/table.js";

// The drug table view (MCP Apps) as the plugin declares and ships it: built by `pnpm build` into
// dist/views/drugs/index.html. Its behaviour in a browser is tested in apps/host (views-browser).
const plugin = createFdaPlugin();
const view = plugin.views?.find((v) => v.name === "drugs");

describe("the fda drug table view", () => {
  it("is declared in the views slot and named by fda_search_drugs", () => {
    expect(view).toMatchObject({ uri: "ui://fda/drugs", title: "FDA drug table" });
    const catalog = createCatalog({ env: {} });
    catalog.register(plugin);
    expect(catalog.list().find((t) => t.name === "fda_search_drugs")?.view).toBe("drugs");
    expect(catalog.list().find((t) => t.name === "fda_count_drugs")?.view).toBeUndefined();
  });

  it("is one self-contained HTML page within its stated budget (150 KB gzipped)", async () => {
    const html = await view!.html();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(view!.description).toContain("at most 150 KB gzipped");
    expect(gzipSync(html).length).toBeLessThanOrEqual(150 * 1024);
    // Nothing loaded from elsewhere: every script and style is inline.
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/i);
    expect(html).not.toMatch(
      /https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\.(?:com|net|io|org)\/[^"'\s]*\.(?:js|css)/i,
    );
  });

  it("sorts by name, sponsor and approval date, missing values last", () => {
    const m = (brand: string, sponsor?: string, date?: string) => ({
      brand_names: [brand],
      generic_names: [],
      routes: [],
      url: "u",
      ...(sponsor ? { sponsor } : {}),
      ...(date ? { original_approval_date: date } : {}),
    });
    const rows = [
      m("Wegovy", "NOVO", "2021-06-04"),
      m("aspirin"),
      m("Ozempic", "NOVO NORDISK", "2017-12-05"),
    ];
    const names = (key: "name" | "sponsor" | "approval", d: "ascending" | "descending") =>
      sortMatches(rows, key, d).map((r) => r.brand_names[0]);
    expect(names("name", "ascending")).toEqual(["aspirin", "Ozempic", "Wegovy"]);
    expect(names("name", "descending")).toEqual(["Wegovy", "Ozempic", "aspirin"]);
    expect(names("approval", "ascending")).toEqual(["Ozempic", "Wegovy", "aspirin"]);
    expect(names("sponsor", "descending")).toEqual(["Ozempic", "Wegovy", "aspirin"]);
    expect(
      statusLine({
        matches: rows,
        total_count: 7,
        fully_searched: false,
        query_constraints_met: true,
        unmet_constraints: [],
      }),
    ).toBe("3 of 7 matching drugs shown; not fully searched: the list is partial.");
  });

  it("shows a label's text sections under their names, without its bookkeeping fields", () => {
    const record = {
      set_id: "0000025c-6dbf-4af7-a741-5cbacaed519a",
      effective_time: "20180404",
      openfda: { brand_name: ["RYBELSUS"], generic_name: ["SEMAGLUTIDE"] },
      indications_and_usage: ["RYBELSUS is indicated as an adjunct to diet and exercise."],
      boxed_warning: ["Risk of thyroid C-cell tumors."],
    };
    expect(labelTitle(record)).toBe("RYBELSUS");
    expect(labelSections(record)).toEqual([
      ["Indications and usage", ["RYBELSUS is indicated as an adjunct to diet and exercise."]],
      ["Boxed warning", ["Risk of thyroid C-cell tumors."]],
    ]);
  });
});
