import { defined, isObject, show, strings } from "./json.js";
import type { SeedTool } from "./seed-tool.js";
import type { Json } from "./types.js";

/** AlphaFold constraints the adapter applies: checked against the prediction, or passed as input. */
const PROTEIN_CONSTRAINTS = ["min_plddt", "min_confidence", "source", "structure_format"] as const;

/** AlphaFold or ESMFold (a ProteinQuery) onto `alphafold_predict_structure`, pLDDT constraints checked. */
export const protein = (model: "AlphaFold" | "ESMFold"): SeedTool => ({
  tool: "alphafold_predict_structure",
  description:
    model === "AlphaFold"
      ? "Protein structure from AlphaFold DB (by UniProt accession or an exact sequence match; new sequences are folded by ESMFold), with overall and per-residue pLDDT."
      : "Protein structure for a new sequence (ESMFold, up to 400 residues; a known UniProt sequence answers from AlphaFold DB), with overall and per-residue pLDDT.",
  querySchema: {
    type: "object",
    properties: {
      sequence: { type: "string", description: "Amino-acid sequence, one-letter code" },
      structure_type: { type: "string", enum: ["pdb", "mmcif"] },
      uniprot_accession: { type: "string", description: "Quiver's addition: a UniProt accession instead" },
    },
  },
  input: (query, constraints) => {
    const { sequence, structure_type, uniprot_accession, uniprot_id, ...rest } = query;
    const unknown = Object.keys(rest);
    if (unknown.length > 0)
      return { refused: `${unknown[0]}: not a field of ProteinQuery; give sequence (and structure_type)` };
    const id = uniprot_accession ?? uniprot_id;
    if (sequence === undefined && id === undefined)
      return { refused: "sequence: a ProteinQuery needs the protein's sequence" };
    const format =
      constraints.structure_format ??
      (typeof structure_type === "string" && /^(pdb|mmcif)$/i.test(structure_type)
        ? structure_type.toLowerCase()
        : undefined);
    const unmet = Object.keys(constraints)
      .filter((k) => !(PROTEIN_CONSTRAINTS as ReadonlyArray<string>).includes(k))
      .map(
        (k) =>
          `${k}: ${model} cannot apply "${k}" (${show(constraints[k])}); constraints it applies: ${PROTEIN_CONSTRAINTS.join(", ")}`,
      );
    if (structure_type !== undefined && format === undefined)
      unmet.push(`structure_type: ${show(structure_type)} is not available; structures come as pdb or mmcif`);
    return {
      input: defined({
        ...(sequence !== undefined ? { sequence } : { uniprot_accession: id }),
        structure_format: format ?? "pdb",
      }),
      unmet,
    };
  },
  shape: (d, constraints, metadata) => {
    const scores = isObject(d.confidence_scores) ? d.confidence_scores : {};
    const overall = typeof scores.overall === "number" ? scores.overall : null;
    const unmet: string[] = [];
    for (const key of ["min_plddt", "min_confidence"] as const) {
      const min = constraints[key];
      if (min === undefined) continue;
      if (typeof min !== "number" || !Number.isFinite(min) || min < 0 || min > 100)
        unmet.push(`${key}: ${show(min)} is not a pLDDT (a number from 0 to 100), so it was not applied`);
      else if (overall === null) unmet.push(`${key}: the model has no overall pLDDT to compare with ${min}`);
      else if (overall < min)
        unmet.push(`${key}: the model's mean pLDDT is ${overall}, below the required ${min}`);
    }
    if (constraints.source !== undefined && constraints.source !== d.source)
      unmet.push(`source: the structure comes from ${show(d.source)}, not ${show(constraints.source)}`);
    const structure = isObject(d.structure) ? d.structure : {};
    // Inline when small; else the answer's resource (a link over the budget, read back by the executor).
    const text = typeof structure.text === "string" ? structure.text : (structureFile(metadata) ?? "");
    const warnings = strings(d.warnings);
    if (text === "" && typeof structure.url === "string")
      warnings.push(`The structure could not be included: download it from ${structure.url}`);
    return {
      results: {
        confidence_scores: {
          overall,
          per_residue: Array.isArray(scores.per_residue) ? scores.per_residue : [],
        },
        structure_data: text,
        ...(warnings.length > 0 ? { warnings } : {}),
      },
      unmet,
      metadata: defined({
        model: d.source === "esmfold" ? "ESMFold" : "AlphaFold",
        source: d.source,
        uniprot_accession: d.uniprot_accession,
        model_id: d.model_id,
        sequence_length: d.sequence_length,
        structure_format: structure.format,
        structure_url: structure.url,
        regions: d.regions,
      }),
    };
  },
});

/** The text of the structure file among the answer's resources (PDB or mmCIF), if it holds one. */
const structureFile = (metadata: Json): string | undefined => {
  const parts = isObject(metadata) && Array.isArray(metadata.content) ? metadata.content : [];
  for (const part of parts) {
    const resource =
      isObject(part) && part.type === "resource" && isObject(part.resource) ? part.resource : undefined;
    if (
      resource &&
      typeof resource.text === "string" &&
      /^chemical\/x-(pdb|mmcif)$/.test(String(resource.mimeType))
    )
      return resource.text;
  }
  return undefined;
};
