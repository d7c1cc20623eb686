import { setting } from "@quiver/core";
import { z } from "zod";

/** A base URL setting: its default, its environment variable and what it is. */
const baseUrl = (url: string, env: string, what: string) =>
  setting(z.url().default(url), { env }).describe(what);

/**
 * The plugin's settings: upstream base URLs (a mirror, or an emulator in tests, each with its
 * environment variable, as a one-plugin server is configured) and output knobs.
 */
export const alphafoldConfigSchema = z.object({
  alphafoldUrl: baseUrl(
    "https://alphafold.ebi.ac.uk",
    "ALPHAFOLD_BASE_URL",
    "AlphaFold DB base URL (the API is under /api).",
  ),
  esmfoldUrl: baseUrl(
    "https://api.esmatlas.com",
    "ESMFOLD_BASE_URL",
    "ESM Atlas base URL (ESMFold at /foldSequence/v1/pdb/).",
  ),
  uniprotUrl: baseUrl(
    "https://rest.uniprot.org",
    "UNIPROT_BASE_URL",
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
