import { fda } from "./fda-mapping.js";
import { privateRepository } from "./private-repository-mapping.js";
import { protein } from "./protein-mapping.js";
import type { SeedTool } from "./seed-tool.js";
import type { Json, ToolType } from "./types.js";

/** The names the interface knows in each category (case and `-`/`_`/spaces do not matter). */
export const KNOWN: Readonly<Record<ToolType, Readonly<Record<string, SeedTool>>>> = {
  SPECIALIZED_MODEL: { AlphaFold: protein("AlphaFold"), ESMFold: protein("ESMFold") },
  SCIENTIFIC_DATABASE: { FDA_Drug_Database: fda },
  PRIVATE_REPOSITORY: {},
  COMPUTATIONAL_SERVICE: {},
};

/** A name as compared: lower case, without spaces, `-` or `_`. */
export const norm = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");

/** More spellings of the known names (the earlier mapping's names keep working). */
export const ALIASES: Readonly<Record<string, readonly [ToolType, string]>> = {
  alphafold: ["SPECIALIZED_MODEL", "AlphaFold"],
  alphafoldpredictstructure: ["SPECIALIZED_MODEL", "AlphaFold"],
  esmfold: ["SPECIALIZED_MODEL", "ESMFold"],
  fda: ["SCIENTIFIC_DATABASE", "FDA_Drug_Database"],
  fdadrugdatabase: ["SCIENTIFIC_DATABASE", "FDA_Drug_Database"],
  fdasearchdrugs: ["SCIENTIFIC_DATABASE", "FDA_Drug_Database"],
  openfda: ["SCIENTIFIC_DATABASE", "FDA_Drug_Database"],
};

/** The tool catalogue the co-scientist's agents receive (`GET /external-tools`). */
export interface ExternalToolDescription {
  readonly tool_type: ToolType;
  readonly tool_name: string;
  readonly description: string;
  readonly query_schema: Json;
  /** The Quiver tool that answers it. */
  readonly quiver_tool: string;
}

/**
 * The interface's tools: each known model and database, and the private repository (any collection
 * name, or `private_repository` for all of them).
 *
 * @example
 * const { tools } = { tools: externalToolCatalogue() };
 */
export const externalToolCatalogue = (): ExternalToolDescription[] => [
  ...(Object.entries(KNOWN) as Array<[ToolType, Record<string, SeedTool>]>).flatMap(([type, tools]) =>
    Object.entries(tools).map(([name, t]) => ({
      tool_type: type,
      tool_name: name,
      description: t.description,
      query_schema: t.querySchema,
      quiver_tool: t.tool,
    })),
  ),
  {
    tool_type: "PRIVATE_REPOSITORY",
    tool_name: "private_repository",
    description: `${privateRepository.description} Use "private_repository" for every collection you can read, or a collection's name (owner/name for a shared one).`,
    query_schema: privateRepository.querySchema,
    quiver_tool: privateRepository.tool,
  },
];
