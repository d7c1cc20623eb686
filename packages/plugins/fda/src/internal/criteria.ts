import { closestMatches, fail } from "@quiver/core";
import { z } from "zod";

const text = (what: string) => z.string().trim().min(1).max(200).describe(what);
const year = (what: string) => z.number().int().min(1938).max(2100).optional().describe(what);

/** A criterion openFDA cannot filter on: kept to be reported, never dropped in silence. */
const otherCriterion = z.strictObject({
  field: z.string().trim().min(1).max(100).describe("The criterion, e.g. 'mechanism'."),
  value: z.string().max(200).describe("Its value."),
});

/**
 * The search criteria shared by `fda_search_drugs` and `fda_count_drugs`, closed (strict-mode ready):
 * a criterion without a field of its own goes in `other_criteria`, and is reported unmet.
 */
export const criteriaSchema = z
  .strictObject({
    indication: text(
      "Disease or condition the drug is indicated for, matched as a phrase in the label's Indications and Usage section, e.g. 'type 2 diabetes'.",
    ).optional(),
    active_ingredient: text("Active ingredient (substance), e.g. 'semaglutide'.").optional(),
    brand_name: text("Brand (proprietary) name, e.g. 'Ozempic'.").optional(),
    generic_name: text("Generic (non-proprietary) name, e.g. 'imatinib mesylate'.").optional(),
    pharmacologic_class: text(
      "Pharmacologic class (FDA Established Pharmacologic Class, mechanism, physiologic effect or chemical structure), e.g. 'Kinase Inhibitor'.",
    ).optional(),
    sponsor: text(
      "Company holding the application (sponsor), e.g. 'Novo Nordisk': matched on the words of openFDA's manufacturer name, or on Drugs@FDA's sponsor name exactly as stored (upper case, e.g. 'NOVO').",
    ).optional(),
    route: text("Route of administration, e.g. 'oral', 'subcutaneous'.").optional(),
    approval_year: z
      .strictObject({
        after: year("Earliest year of original approval, inclusive (approved in this year or later)."),
        before: year("Latest year of original approval, inclusive (approved in this year or earlier)."),
      })
      .optional()
      .describe("Range of the year of original FDA approval; give after, before or both."),
    other_criteria: z
      .array(otherCriterion)
      .max(20)
      .optional()
      .describe(
        "Any other criterion: openFDA cannot filter on it, so it is listed in unmet_constraints, not applied.",
      ),
  })
  .describe("What to look for. Give at least one criterion; all given criteria must hold (AND).");

/** Parsed search criteria. */
export type Criteria = z.output<typeof criteriaSchema>;

/** The text criteria, in the schema's order. */
export const TEXT_CRITERIA = criteriaSchema.keyof().exclude(["approval_year", "other_criteria"]).options;

/** One text criterion's name. */
export type TextCriterion = (typeof TEXT_CRITERIA)[number];

/** Every criterion the tools can apply, in the schema's order. */
export const KNOWN_CRITERIA: ReadonlyArray<string> = [...TEXT_CRITERIA, "approval_year"];

/** The criteria actually given (text ones with a value, approval_year with a bound). */
export const givenCriteria = (c: Criteria): Array<TextCriterion | "approval_year"> => {
  const text = TEXT_CRITERIA.filter((k) => c[k] !== undefined);
  const y = c.approval_year;
  return y?.after !== undefined || y?.before !== undefined ? [...text, "approval_year"] : text;
};

/** A short human description of the criteria ("brand_name "Ozempic", route "oral""). */
export const describeCriteria = (c: Criteria): string => {
  const { after: a, before: b } = c.approval_year ?? {};
  const years = a === undefined ? `in or before ${b}` : b === undefined ? `in or after ${a}` : `${a}–${b}`;
  const parts = givenCriteria(c).map((k) => (k === "approval_year" ? `approved ${years}` : `${k} "${c[k]}"`));
  return parts.length > 0 ? parts.join(", ") : "no criteria";
};

/** Words a model may use for a criterion under another name, by the criterion meant. */
const SYNONYMS: Readonly<Record<string, ReadonlyArray<string>>> = {
  pharmacologic_class: ["mechanism", "mechanism_of_action", "moa", "drug_class"],
  active_ingredient: ["ingredient", "substance"],
  sponsor: ["manufacturer", "company"],
  indication: ["disease", "condition"],
  approval_year: ["approval_date", "year"],
};

/** The criterion closest to an unknown key: a known synonym, else the nearest name. */
export const closestCriterion = (key: string): string => {
  const k = key.toLowerCase();
  const synonym = Object.keys(SYNONYMS).find((c) => SYNONYMS[c]!.includes(k));
  return synonym ?? closestMatches(KNOWN_CRITERIA, k, { limit: 1 })[0]!;
};

/**
 * Refuses an `other_criteria` entry that names a criterion of its own, and criteria of which openFDA
 * can apply none (`invalid_input` naming the accepted ones). No criteria at all are refused too, unless
 * the tool then answers for every record: `allRecords` then says so, ending the suggestion.
 */
export const requireApplicable = (c: Criteria, allRecords?: string): void => {
  const misplaced = c.other_criteria?.find((o) => KNOWN_CRITERIA.includes(o.field));
  if (misplaced) {
    const message = `search_criteria.other_criteria names "${misplaced.field}", a criterion of its own.`;
    const suggestion = `Give it as search_criteria.${misplaced.field} instead.`;
    throw fail.invalidInput(message, { suggestion });
  }
  if (givenCriteria(c).length > 0) return;
  const unknown = (c.other_criteria ?? []).map((o) => o.field);
  if (unknown.length > 0) {
    const message = `search_criteria has no criterion openFDA can filter on: ${unknown.map((k) => `"${k}"`).join(", ")} cannot be applied.`;
    const suggestion = `Use the accepted criteria ${KNOWN_CRITERIA.join(", ")}; closest to "${unknown[0]}": ${closestCriterion(unknown[0]!)}.${allRecords ?? ""}`;
    throw fail.invalidInput(message, { suggestion });
  }
  if (allRecords === undefined) {
    const suggestion = `For example { "search_criteria": { "active_ingredient": "semaglutide" } }.`;
    throw fail.invalidInput("search_criteria is empty: give at least one criterion.", { suggestion });
  }
};

/**
 * One `unmet_constraints` line per entry of `other_criteria`: what was not applied, the criteria
 * that can be, and the closest one.
 *
 * @example
 * unappliedCriteria({ other_criteria: [{ field: "mechanism", value: "SGLT2 inhibitor" }] })
 * // ['mechanism: openFDA cannot filter on "mechanism" ("SGLT2 inhibitor"), so it was not applied; ...']
 */
export const unappliedCriteria = (c: Criteria): string[] =>
  (c.other_criteria ?? []).map(({ field: k, value }) => {
    const shown = JSON.stringify(value.length > 78 ? `${value.slice(0, 75)}...` : value);
    return `${k}: openFDA cannot filter on "${k}" (${shown}), so it was not applied; the criteria it can apply are ${KNOWN_CRITERIA.join(", ")} (closest: ${closestCriterion(k)}).`;
  });

const ADD_HINTS: Readonly<Record<string, string>> = {
  route: 'Add a route (e.g. "oral" or "subcutaneous").',
  approval_year: "Add an approval_year range (after/before).",
  sponsor: "Add the sponsor (the company holding the application).",
  pharmacologic_class: 'Add a pharmacologic_class (e.g. "Kinase Inhibitor").',
  active_ingredient: "Add the active_ingredient.",
};

/** How to loosen each criterion, for a search that found nothing. */
const LOOSEN: Readonly<Record<string, string>> = {
  brand_name:
    "Search by generic_name or active_ingredient instead of brand_name (brands differ between countries).",
  indication: "Use a broader or differently worded indication (one or two key words from label language).",
  generic_name: "Try active_ingredient instead of generic_name (salts: 'imatinib' vs 'imatinib mesylate').",
  approval_year: "Widen or remove approval_year.",
  pharmacologic_class:
    "Use the FDA class wording (e.g. 'Kinase Inhibitor', 'GLP-1 Receptor Agonist') or drop pharmacologic_class.",
};

/** Suggestions for a search that found nothing: which criterion to loosen, and how. */
const suggestionsForNone = (c: Criteria): string[] => {
  const given = givenCriteria(c);
  // generic_name's hint is to try active_ingredient: no help when that is given too.
  const loosens = (k: keyof Criteria) => c[k] !== undefined && !(k === "generic_name" && c.active_ingredient);
  const loosen = Object.entries(LOOSEN).flatMap(([k, hint]) => (loosens(k as keyof Criteria) ? [hint] : []));
  const remove = given.length > 1 ? [`Remove one criterion at a time (given: ${given.join(", ")}).`] : [];
  return ["Check the spelling of names; openFDA matches whole words, not fragments.", ...loosen, ...remove];
};

/** Suggestions for a search with more matches than were returned. */
const suggestionsForMany = (c: Criteria, total: number, returned: number): string[] => {
  const given = new Set<string>(givenCriteria(c));
  const add = Object.entries(ADD_HINTS).flatMap(([k, hint]) => (given.has(k) ? [] : [hint]));
  const split = `Call fda_count_drugs with the same search_criteria and count_by "sponsor" or "route" to see how the ${total} matches split.`;
  const more = returned < 100 ? ["Raise max_results (up to 100) to see more of the matches."] : [];
  return [...add.slice(0, 3), split, ...more];
};

/** A search's refinement suggestions: how to loosen one that found nothing, to narrow a partial one. */
export const refinements = (c: Criteria, total: number, returned: number, complete: boolean): string[] =>
  total === 0 ? suggestionsForNone(c) : complete ? [] : suggestionsForMany(c, total, returned);
