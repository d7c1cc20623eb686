import { defineToolWith, fail } from "@quiver/core";
import { z } from "zod";
import type { AlphafoldConfig } from "../config.js";
import { predictionFromAfdb } from "../internal/from-afdb.js";
import { predictionFromEsmfold } from "../internal/from-esmfold.js";
import { formatSchema, predictionSchema, stage } from "../internal/output.js";
import { ESMFOLD_MAX_LENGTH, normaliseAccession, validateSequence } from "../internal/sequence.js";
import { type AfdbEntry, failureMessage, fetchAfdbEntry, findExactAccession } from "../internal/upstreams.js";

/** The fallback the model is told to take when the structure services cannot be reached. */
const FALLBACK_GUIDANCE =
  "The structure services could not be reached. Say so; describe what is known about the protein's domains from your own knowledge and mark it as unverified.";

/** One of the two ways to name the protein (the tool takes exactly one): at most `max` characters. */
const proteinBy = (max: number, what: string) => z.string().max(max).optional().describe(what);

/**
 * `alphafold_predict_structure`: a protein's 3D structure with pLDDT confidence, from AlphaFold DB (by UniProt
 * accession, or by an exact sequence match) or folded by ESMFold (new sequences up to 400 residues).
 *
 * Use it through a catalog; it reaches AlphaFold DB, UniProt and ESMFold with the catalog's HTTP client.
 *
 * @example
 * await catalog.call("alphafold_predict_structure", { uniprot_accession: "P04637" })
 */
export const predictStructure = defineToolWith<AlphafoldConfig>()({
  name: "alphafold_predict_structure",
  title: "Predict protein structure",
  description:
    "Predict a protein's 3D structure with per-residue confidence (pLDDT). Give exactly one of uniprot_accession (the AlphaFold DB model) or sequence (an exact UniProt match's AlphaFold DB model, else an ESMFold prediction for up to 400 residues). Returns overall and per-residue pLDDT, confidence bands per region, warnings for low-confidence stretches, and the structure (inline when small, else a link). Use this when a question depends on a protein's fold, domains or disordered regions; it refuses DNA/RNA and invalid sequences.",
  category: "specialized_model",
  input: z.object({
    sequence: proteinBy(
      20_000,
      "Protein sequence in one-letter amino-acid code (FASTA header and whitespace allowed). Give this or uniprot_accession, not both.",
    ),
    uniprot_accession: proteinBy(
      40,
      "UniProt accession, e.g. P04637, or AlphaFold model id AF-P04637-F1. Give this or sequence, not both.",
    ),
    structure_format: formatSchema.default("pdb").describe("Structure file format (ESMFold gives PDB only)."),
  }),
  output: predictionSchema,
  examples: [
    { input: { uniprot_accession: "Q7Z6M3" }, description: "An AlphaFold DB model by accession." },
    {
      input: { sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQ" },
      description: "A new sequence, folded by ESMFold.",
    },
  ],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  // An ESMFold fold may take minutes: it may run as a task, reporting its stages as progress. The
  // deadline is past the timeout, so the tool's own timeout answer (with the facts found) is kept.
  task: { support: "optional", deadline: "180s" },
  policy: {
    timeout: "150s",
    // Retries: the default two (bounded by the timeout), so a service that answers 503 twice and then
    // recovers is found. The rate limit is keyed by the plugin id, `alphafold`.
    cache: { ttl: "24h", capacity: 200 },
    rateLimit: { limit: 60, window: "1 minute" },
    maxOutputChars: 80_000,
    // The last good prediction (marked stale, with its age) beats none while the services are down.
    fallback: { stale: true, guidance: FALLBACK_GUIDANCE },
  },
  instruction:
    "Report the overall pLDDT and the low-confidence regions (pLDDT < 70 is unreliable; < 50 is often disordered). Do not paste per-residue arrays or structure text; give the link or say the structure is attached. " +
    "Cite the model: AlphaFold DB as Jumper et al., Nature 596, 583–589 (2021) and Varadi et al., Nucleic Acids Res. (2024) (data CC BY 4.0); ESMFold as Lin et al., Science 379, 1123–1130 (2023).",
  run: async ({ sequence: raw, uniprot_accession: asked, structure_format: format }, ctx) => {
    if ((raw === undefined) === (asked === undefined)) {
      const both = raw !== undefined;
      const message = both
        ? "Give either sequence or uniprot_accession, not both."
        : "Give a sequence or a uniprot_accession.";
      const suggestion = `For example { "uniprot_accession": "P04637" } or { "sequence": "MEEPQSDPSV…" }.`;
      throw fail.invalidInput(message, { suggestion });
    }
    if (asked !== undefined) {
      const accession = normaliseAccession(asked);
      stage(ctx, 1, `Looking up AlphaFold DB for ${accession}`);
      const entry = await fetchAfdbEntry(ctx, accession);
      if (!entry) {
        const message = `AlphaFold DB has no prediction for ${accession}: the accession may not exist, or the protein is outside its coverage.`;
        const suggestion = `Check the accession at uniprot.org, or pass the sequence to fold it with ESMFold (up to ${ESMFOLD_MAX_LENGTH} residues).`;
        throw fail.outOfDomain(message, { suggestion });
      }
      return predictionFromAfdb(ctx, entry, format, []);
    }

    const sequence = validateSequence(raw!);
    stage(ctx, 1, `Looking for an exact UniProt match of the ${sequence.length}-residue sequence`);
    const warnings: string[] = [];
    let entry: AfdbEntry | undefined;
    try {
      const match = await findExactAccession(ctx, sequence);
      if (match) {
        entry = await fetchAfdbEntry(ctx, match);
        if (!entry) warnings.push(`UniProt ${match} matches exactly, but AlphaFold DB has no model of it.`);
        else if (entry.sequence !== undefined && entry.sequence !== sequence) {
          warnings.push(`AlphaFold DB's model of ${match} is for a different sequence version; not used.`);
          entry = undefined;
        }
      }
    } catch (e) {
      warnings.push(`The exact-match lookup (UniProt / AlphaFold DB) failed (${failureMessage(e)}).`);
    }
    if (entry) return predictionFromAfdb(ctx, entry, format, warnings);
    if (sequence.length > ESMFOLD_MAX_LENGTH) {
      const message = `The sequence has ${sequence.length} residues and matches no AlphaFold DB model exactly; ESMFold folds at most ${ESMFOLD_MAX_LENGTH}.`;
      const suggestion = `Give its UniProt accession if it has one, or split it into domains of at most ${ESMFOLD_MAX_LENGTH} residues.`;
      throw fail.outOfDomain(message, { suggestion });
    }
    return predictionFromEsmfold(ctx, sequence, format, warnings);
  },
});
