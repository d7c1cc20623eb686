import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPrivateRepoPlugin } from "@quiver/plugin-private-repo";
import { runPluginCommand } from "@quiver/testing";
import type { ExternalToolRequest } from "../../src/seeds.js";

/**
 * A scientist's own papers (short summaries written for these tests, with test DOIs), added to the
 * private repository with the plugin's `add` command: two before 2020, three after.
 */
export const PAPERS: Record<string, string> = {
  "sustain-6.md": `---
title: Semaglutide and cardiovascular outcomes in type 2 diabetes
authors: [Marso Steven, Bain Stephen]
date: 2016-11-10
doi: 10.1000/glp1.2016.sustain6
tags: [glp-1, cardiovascular]
---
Once-weekly subcutaneous semaglutide, a GLP-1 receptor agonist, lowered major adverse cardiovascular events in patients with type 2 diabetes at high cardiovascular risk.
`,
  "empa-reg.md": `---
title: Empagliflozin and cardiovascular mortality in type 2 diabetes
authors: [Zinman Bernard]
date: 2015-11-26
doi: 10.1000/sglt2.2015.empareg
tags: [sglt2, cardiovascular]
---
The SGLT2 inhibitor empagliflozin reduced cardiovascular death in type 2 diabetes; glucose lowering alone did not explain the effect.
`,
  "step-1.md": `---
title: Once-weekly semaglutide in adults with obesity
authors: [Wilding John]
date: 2021-03-18
doi: 10.1000/glp1.2021.step1
tags: [glp-1, obesity]
---
Semaglutide 2.4 mg once weekly with lifestyle intervention produced a mean weight loss near fifteen percent in adults with obesity without diabetes.
`,
  "pioneer.md": `---
title: Oral semaglutide and glycemic control
authors: [Rodbard Helena]
date: 2022-06-01
doi: 10.1000/glp1.2022.oral
tags: [glp-1, oral]
---
Oral semaglutide taken with an absorption enhancer lowered HbA1c in type 2 diabetes comparably to injectable GLP-1 receptor agonists.
`,
  "select.md": `---
title: Semaglutide and cardiovascular events in obesity without diabetes
authors: [Lincoff Michael]
date: 2023-11-11
doi: 10.1000/glp1.2023.select
tags: [glp-1, cardiovascular, obesity]
---
In people with overweight or obesity and cardiovascular disease but no diabetes, semaglutide reduced major adverse cardiovascular events.
`,
};

/** The co-scientist's own requests, in the External Tools Interface's shape. */
export const REQUESTS = {
  /** The example: openFDA cannot filter on mechanism, so it must be reported, not dropped. */
  fdaMechanism: {
    tool_type: "SCIENTIFIC_DATABASE",
    tool_name: "FDA_Drug_Database",
    query: { search_criteria: { active_ingredient: "semaglutide" } },
    constraints: { mechanism: "SGLT2 inhibitor" },
  },
  /** A constraint openFDA can apply: only oral products. */
  fdaOral: {
    tool_type: "SCIENTIFIC_DATABASE",
    tool_name: "FDA_Drug_Database",
    query: { search_criteria: { active_ingredient: "semaglutide" }, max_results: 20 },
    constraints: { route: "oral" },
  },
  /** Approved in 2019 or later. */
  fdaApprovedSince: {
    tool_type: "SCIENTIFIC_DATABASE",
    tool_name: "FDA_Drug_Database",
    query: { search_criteria: { active_ingredient: "semaglutide" } },
    constraints: { approval_year: { after: 2019 } },
  },
  /** The spec's own filter shape. */
  repoSince2020: {
    tool_type: "PRIVATE_REPOSITORY",
    tool_name: "private_repository",
    query: { search_terms: ["semaglutide", "GLP-1"] },
    constraints: { publication_date: { after: "2020-01-01" } },
  },
  /** A filter the repository does not have. */
  repoImpactFactor: {
    tool_type: "PRIVATE_REPOSITORY",
    tool_name: "private_repository",
    query: { search_terms: ["semaglutide"] },
    constraints: { publication_date: { after: "2020-01-01" }, impact_factor: { min: 10 } },
  },
  /** A structure by UniProt accession (Quiver's addition to ProteinQuery). */
  alphafold: {
    tool_type: "SPECIALIZED_MODEL",
    tool_name: "AlphaFold",
    query: { uniprot_accession: "Q7Z6M3" },
  },
  /** A structure that must be confidently predicted. */
  alphafoldConfident: {
    tool_type: "SPECIALIZED_MODEL",
    tool_name: "AlphaFold",
    query: { uniprot_accession: "Q7Z6M3" },
    constraints: { min_plddt: 95, organism: "Homo sapiens" },
  },
} satisfies Record<string, ExternalToolRequest>;

/**
 * Writes {@link PAPERS} into `dir` and adds them with the plugin's own `add` command to
 * scientist-1's collection `glp1`, in the repository at `<dir>/repo`; returns the command's exit code.
 */
export const addPapers = async (dir: string): Promise<number> => {
  for (const [name, text] of Object.entries(PAPERS)) writeFileSync(join(dir, name), text);
  const added = await runPluginCommand(createPrivateRepoPlugin(), "add", {
    args: Object.keys(PAPERS),
    flags: { owner: "scientist-1", collection: "glp1" },
    options: { indexPath: join(dir, "repo") },
    cwd: dir,
    json: false,
    env: {},
  });
  return added.exitCode;
};
