import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CatalogOptions, ToolResult } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { afterAll } from "vitest";
import { createPrivateRepoPlugin } from "../../src/index.js";

/** Makes a catalog (without the machine's environment) that is closed after the test. */
export const makeCatalog = useCatalog({ env: {} });

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the file's tests. */
export const tempDir = (prefix = "quiver-repo-"): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** Writes files (path → content) under a folder and returns the folder. */
export const writeFiles = (dir: string, files: Record<string, string>): string => {
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
};

/** A catalog with a fresh private-repo plugin on `indexPath`, closed after the test. */
export const repoCatalog = (indexPath: string, catalogOptions: CatalogOptions = {}) => {
  const catalog = makeCatalog(catalogOptions);
  catalog.register(createPrivateRepoPlugin(), { indexPath });
  return catalog;
};

/** Call options for a principal. */
export const as = (principal: string | undefined) => ({
  session: { id: `s-${principal}`, ...(principal ? { principal } : {}) },
});

/** The data of an envelope, typed loosely for assertions. */
export const dataOf = (r: ToolResult) => r.data as Record<string, any>;

/** Sample documents in every supported format. */
export const SAMPLE_FILES: Record<string, string> = {
  "notes/vitamin-d.md": `---
authors: [Jane Doe, Richard Roe]
date: 2019-05-17
doi: 10.1000/vitd.2019
tags: [nutrition, bone]
---
# Vitamin D and bone density

Vitamin D supplementation improves bone mineral density in older adults with deficiency.
`,
  "notes/lab-log.txt":
    "Lab log: calibrated the mass spectrometer; CRISPR off-target assay repeated on HEK293 cells.",
  "refs/papers.bib": `@article{smith2021,
  title = {Gut microbiome composition and insulin resistance},
  author = {Smith, John and Kumar, Priya},
  year = {2021},
  doi = {10.1000/gut.2021},
  keywords = {microbiome, diabetes},
  abstract = {We report that gut microbiome diversity predicts insulin resistance in a cohort of 500 adults.}
}
@article{lee2015,
  title = {Telomere length and aging},
  author = {Lee, Min},
  year = {2015},
  abstract = {Telomere attrition accompanies cellular aging in fibroblasts.}
}
`,
  "data/abstracts.jsonl": [
    JSON.stringify({
      id: "a1",
      title: "Statins and muscle pain",
      text: "Statin therapy is associated with muscle symptoms in a minority of patients.",
      authors: ["Ana Lopez"],
      date: "2018",
      tags: ["cardiology"],
      doi: "10.1000/statin.2018",
    }),
    "not json",
    JSON.stringify({
      id: "a2",
      title: "Vitamin D in winter",
      text: "Serum vitamin D falls in winter months at high latitudes.",
      authors: ["Jane Doe"],
      date: "2022-01",
      tags: ["nutrition"],
    }),
  ].join("\n"),
};
