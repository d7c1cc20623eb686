import { gzipSync } from "node:zlib";
import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createAlphafoldPlugin } from "../src/index.js";
import { BANDS, bandOf, lowRegions, plddtOf } from "../views/structure/plddt-bands.js";

// The structure view (MCP Apps) as the plugin declares and ships it: built by `pnpm build` into
// dist/views/structure/index.html. Its drawing in a browser is tested in apps/host (views-browser).
const plugin = createAlphafoldPlugin();
const view = plugin.views?.find((v) => v.name === "structure");

describe("the alphafold structure view", () => {
  it("is declared in the views slot and named by alphafold_predict_structure", () => {
    expect(view).toMatchObject({ uri: "ui://alphafold/structure" });
    const catalog = createCatalog({ env: {} });
    catalog.register(plugin);
    expect(catalog.list().find((t) => t.name === "alphafold_predict_structure")?.view).toBe("structure");
  });

  it("is one self-contained HTML page within its stated budget (1 MB gzipped)", async () => {
    const html = await view!.html();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(view!.description).toContain("at most 1 MB gzipped");
    expect(gzipSync(html).length).toBeLessThanOrEqual(1024 * 1024);
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/i);
  });

  it("bands pLDDT as AlphaFold DB does, and reads a residue's score from the answer or the B-factor", () => {
    expect([95, 90, 89.9, 70, 69, 50, 49.9].map((s) => BANDS.indexOf(bandOf(s)))).toEqual([
      0, 0, 1, 1, 2, 2, 3,
    ]);
    const p = {
      source: "esmfold",
      sequence_length: 3,
      confidence_scores: { per_residue: [91, 60] },
      regions: [
        { start: 5, end: 5, mean_plddt: 91 },
        { start: 6, end: 6, mean_plddt: 60 },
      ],
      structure: { format: "pdb" as const },
    };
    expect(plddtOf(p, 6, 0)).toBe(60);
    expect(plddtOf(p, 7, 0.42)).toBe(42);
    expect(plddtOf(p, 7, 88)).toBe(88);
    expect(lowRegions(p)).toEqual([{ start: 6, end: 6, mean_plddt: 60 }]);
  });
});
