import { setting } from "@quiver/core";
import { z } from "zod";

/** A base URL setting: its environment variable and its default. */
const baseUrl = (env: string, url: string) => setting(z.url().default(url), { env });

/**
 * The plugin's settings: upstream base URLs (a mirror, or an emulator in tests, each with its
 * environment variable, as a one-plugin server is configured) and output knobs.
 */
export const alphafoldConfigSchema = z.object({
  alphafoldUrl: baseUrl("ALPHAFOLD_BASE_URL", "https://alphafold.ebi.ac.uk").describe(
    "AlphaFold DB base URL (the API is under /api).",
  ),
  esmfoldUrl: baseUrl("ESMFOLD_BASE_URL", "https://api.esmatlas.com").describe(
    "ESM Atlas base URL (ESMFold at /foldSequence/v1/pdb/).",
  ),
  uniprotUrl: baseUrl("UNIPROT_BASE_URL", "https://rest.uniprot.org").describe(
    "UniProt REST base URL (exact-sequence lookup in UniParc).",
  ),
  // 40,000 characters is about 50 residues of a full-atom PDB file, or a 400-residue CA trace, and fits
  // the tool's 80,000-character output budget beside the per-residue scores.
  inlineStructureMaxChars: z
    .int()
    .min(0)
    .default(40_000)
    .describe("Largest structure text returned inline; larger structures are returned as a link."),
  esmfoldTimeoutMs: z.int().positive().default(120_000).describe("How long ESMFold may take to answer."),
  progressIntervalMs: z
    .int()
    .positive()
    .default(5_000)
    .describe("How often a long prediction reports progress."),
});

/** The parsed settings of the AlphaFold plugin. */
export type AlphafoldConfig = z.output<typeof alphafoldConfigSchema>;
