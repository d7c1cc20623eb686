/** One match of `fda_search_drugs` (the fields the table shows). */
export interface DrugMatch {
  readonly application_number?: string;
  readonly sponsor?: string;
  readonly brand_names: ReadonlyArray<string>;
  readonly generic_names: ReadonlyArray<string>;
  readonly routes: ReadonlyArray<string>;
  readonly original_approval_date?: string;
  readonly url: string;
}

/** What `fda_search_drugs` answers in its envelope's `data`. */
export interface DrugSearch {
  readonly matches: ReadonlyArray<DrugMatch>;
  readonly total_count: number;
  readonly fully_searched: boolean;
  readonly query_constraints_met: boolean;
  readonly unmet_constraints: ReadonlyArray<string>;
}

/** The columns the table sorts by. */
export type SortKey = "name" | "sponsor" | "approval";

/** A match's name: its first brand name, else its first generic name. */
export const nameOf = (m: DrugMatch): string => m.brand_names[0] ?? m.generic_names[0] ?? "";

const keyOf: Record<SortKey, (m: DrugMatch) => string> = {
  name: nameOf,
  sponsor: (m) => m.sponsor ?? "",
  approval: (m) => m.original_approval_date ?? "",
};

/** The matches sorted by `key` (missing values last either way; ISO dates sort as text). */
export const sortMatches = (
  matches: ReadonlyArray<DrugMatch>,
  key: SortKey,
  direction: "ascending" | "descending",
): DrugMatch[] => {
  const sign = direction === "ascending" ? 1 : -1;
  return [...matches].sort((a, b) => {
    const x = keyOf[key](a);
    const y = keyOf[key](b);
    if (!x || !y) return x ? -1 : y ? 1 : 0;
    return sign * x.localeCompare(y, "en", { sensitivity: "base" });
  });
};

/** The status line: how many are shown of how many, and whether the search was complete. */
export const statusLine = (s: DrugSearch): string =>
  `${s.matches.length} of ${s.total_count} matching drugs shown; ${
    s.fully_searched ? "fully searched: every match is listed." : "not fully searched: the list is partial."
  }`;
