import { z } from "zod";

const text = (what: string) => z.string().trim().min(1).max(200).describe(what);

/** The search criteria shared by `fda_search_drugs` and `fda_count_drugs`. */
export const criteriaSchema = z
  .object({
    indication: text(
      "Disease or condition the drug is indicated for, matched as a phrase in the label's Indications and Usage section, e.g. 'type 2 diabetes'.",
    ).optional(),
    active_ingredient: text("Active ingredient (substance), e.g. 'semaglutide'.").optional(),
    brand_name: text("Brand (proprietary) name, e.g. 'Ozempic'.").optional(),
    generic_name: text("Generic (non-proprietary) name, e.g. 'imatinib mesylate'.").optional(),
    pharmacologic_class: text(
      "Pharmacologic class (FDA Established Pharmacologic Class, mechanism, physiologic effect or chemical structure), e.g. 'Kinase Inhibitor'.",
    ).optional(),
    sponsor: text("Company holding the application (sponsor), e.g. 'Novo Nordisk'.").optional(),
    route: text("Route of administration, e.g. 'oral', 'subcutaneous'.").optional(),
    approval_year: z
      .object({
        after: z
          .number()
          .int()
          .min(1938)
          .max(2100)
          .optional()
          .describe("Earliest year of original approval, inclusive (approved in this year or later)."),
        before: z
          .number()
          .int()
          .min(1938)
          .max(2100)
          .optional()
          .describe("Latest year of original approval, inclusive (approved in this year or earlier)."),
      })
      .optional()
      .describe("Range of the year of original FDA approval; give after, before or both."),
  })
  .describe("What to look for. Give at least one criterion; all given criteria must hold (AND).");

/** Parsed search criteria. */
export type Criteria = z.output<typeof criteriaSchema>;

/** The text criteria, in a fixed order. */
export const TEXT_CRITERIA = [
  "indication",
  "active_ingredient",
  "brand_name",
  "generic_name",
  "pharmacologic_class",
  "sponsor",
  "route",
] as const;

/** One text criterion's name. */
export type TextCriterion = (typeof TEXT_CRITERIA)[number];

/** The criteria actually given (text ones with a value, approval_year with a bound). */
export const givenCriteria = (c: Criteria): Array<TextCriterion | "approval_year"> => {
  const out: Array<TextCriterion | "approval_year"> = TEXT_CRITERIA.filter((k) => c[k] !== undefined);
  if (c.approval_year && (c.approval_year.after !== undefined || c.approval_year.before !== undefined)) {
    out.push("approval_year");
  }
  return out;
};

/** A short human description of the criteria ("brand_name "Ozempic", route "oral""). */
export const describeCriteria = (c: Criteria): string => {
  const parts: string[] = TEXT_CRITERIA.filter((k) => c[k] !== undefined).map((k) => `${k} "${c[k]}"`);
  const y = c.approval_year;
  if (y?.after !== undefined && y.before !== undefined) parts.push(`approved ${y.after}–${y.before}`);
  else if (y?.after !== undefined) parts.push(`approved in or after ${y.after}`);
  else if (y?.before !== undefined) parts.push(`approved in or before ${y.before}`);
  return parts.length > 0 ? parts.join(", ") : "no criteria";
};
