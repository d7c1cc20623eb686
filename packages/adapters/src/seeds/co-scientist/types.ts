// The External Tools Interface's request and response shapes, as the co-scientist sends and reads them.

/** A JSON object. */
export type Json = Record<string, unknown>;

/** The four categories of the External Tools Interface. */
export const TOOL_TYPES = [
  "SPECIALIZED_MODEL",
  "SCIENTIFIC_DATABASE",
  "PRIVATE_REPOSITORY",
  "COMPUTATIONAL_SERVICE",
] as const;

/** A category of the External Tools Interface. */
export type ToolType = (typeof TOOL_TYPES)[number];

/**
 * The co-scientist's `ExternalToolRequest`: the category, the caller's name for the tool, the query
 * (`ProteinQuery`, `DatabaseQuery` or `RepositoryQuery`), constraints, and a time limit (default 300 s).
 */
export interface ExternalToolRequest {
  readonly tool_type: ToolType;
  /** "AlphaFold", "ESMFold", "FDA_Drug_Database", or a repository or collection name. */
  readonly tool_name: string;
  /** `{sequence, structure_type?}`, `{search_criteria, max_results?}` or `{search_terms, filters?}`. */
  readonly query: Readonly<Json>;
  /** Every constraint is applied or reported (`metadata.unmet_constraints`), never dropped. */
  readonly constraints?: Readonly<Json>;
  /** The call's time limit in seconds (default 300). */
  readonly timeout_seconds?: number;
}

/** The statuses of an `ExternalToolResponse`. */
export type ExternalToolStatus = "SUCCESS" | "PARTIAL_SUCCESS" | "FAILURE" | "TIMEOUT" | "ACCESS_DENIED";

/** `ProteinStructureResult`: confidence with every prediction, the structure as PDB text. */
export interface ProteinStructureResult {
  readonly confidence_scores: {
    readonly overall: number | null;
    readonly per_residue: ReadonlyArray<number>;
  };
  readonly structure_data: string;
  readonly warnings?: ReadonlyArray<string>;
}

/** `DatabaseResult`: the matches, the count of every match, whether every constraint was applied. */
export interface DatabaseResult {
  readonly matches: ReadonlyArray<Json>;
  readonly total_count: number;
  readonly query_constraints_met: boolean;
}

/** `RepositoryResult`: documents best first, each one's relevance in [0, 1]. */
export interface RepositoryResult {
  readonly documents: ReadonlyArray<Json>;
  readonly relevance_scores: ReadonlyArray<number>;
}

/** What the co-scientist receives back (`results` is null on a failure). */
export interface ExternalToolResponse {
  readonly tool_name: string;
  readonly status: ExternalToolStatus;
  readonly results: ProteinStructureResult | DatabaseResult | RepositoryResult | Json | null;
  /** On failure `error_type`, `message` and `retry_after` (seconds, when known); else how it ran. */
  readonly metadata: Json;
  readonly cached: boolean;
}
