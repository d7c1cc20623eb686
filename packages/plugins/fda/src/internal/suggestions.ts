import { type Criteria, givenCriteria } from "./criteria.js";

const ADD_HINTS: Readonly<Record<string, string>> = {
  route: 'Add a route (e.g. "oral" or "subcutaneous").',
  approval_year: "Add an approval_year range (after/before).",
  sponsor: "Add the sponsor (the company holding the application).",
  pharmacologic_class: 'Add a pharmacologic_class (e.g. "Kinase Inhibitor").',
  active_ingredient: "Add the active_ingredient.",
};

/** Suggestions for a search that found nothing: which criterion to loosen, and how. */
export const suggestionsForNone = (c: Criteria): string[] => {
  const given = givenCriteria(c);
  const out: string[] = ["Check the spelling of names; openFDA matches whole words, not fragments."];
  if (c.brand_name)
    out.push(
      "Search by generic_name or active_ingredient instead of brand_name (brands differ between countries).",
    );
  if (c.indication)
    out.push("Use a broader or differently worded indication (one or two key words from label language).");
  if (c.generic_name && !c.active_ingredient)
    out.push("Try active_ingredient instead of generic_name (salts: 'imatinib' vs 'imatinib mesylate').");
  if (c.approval_year) out.push("Widen or remove approval_year.");
  if (c.pharmacologic_class)
    out.push(
      "Use the FDA class wording (e.g. 'Kinase Inhibitor', 'GLP-1 Receptor Agonist') or drop pharmacologic_class.",
    );
  if (given.length > 1) out.push(`Remove one criterion at a time (given: ${given.join(", ")}).`);
  return out;
};

/** Suggestions for a search with more matches than were returned. */
export const suggestionsForMany = (c: Criteria, total: number, returned: number): string[] => {
  const given = new Set<string>(givenCriteria(c));
  const out = Object.entries(ADD_HINTS)
    .filter(([k]) => !given.has(k))
    .slice(0, 3)
    .map(([, hint]) => hint);
  out.push(
    `Call fda_count_drugs with the same search_criteria and count_by "sponsor" or "route" to see how the ${total} matches split.`,
  );
  if (returned < 100) out.push("Raise max_results (up to 100) to see more of the matches.");
  return out;
};
