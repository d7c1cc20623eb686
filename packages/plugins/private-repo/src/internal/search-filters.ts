import { fail } from "@quiver/core";
import type { SearchFilters } from "@quiver/search";
import { z } from "zod";

const DATE = /^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/;

const date = (bound: "Earliest" | "Latest") =>
  z.string().optional().describe(`${bound} date, inclusive: YYYY, YYYY-MM or YYYY-MM-DD.`);

/** The filters of `private_repo_search`: all given must hold, an unknown one is refused. */
export const filtersSchema = z
  .strictObject({
    date_from: date("Earliest"),
    date_to: date("Latest"),
    publication_date: z
      .strictObject({ after: date("Earliest"), before: date("Latest") })
      .optional()
      .describe("The date range as {after, before}; the same as date_from/date_to (give one form)."),
    authors: z
      .array(z.string().min(1).describe("A full name or a last name."))
      .max(20)
      .optional()
      .describe("Any of these authors (full name, or last name alone)."),
    tags: z
      .array(z.string().min(1).describe("A tag."))
      .max(20)
      .optional()
      .describe("Any of these tags (case-insensitive)."),
    collections: z
      .array(z.string().min(1).describe("A collection name, or owner/name for a shared one."))
      .max(50)
      .optional()
      .describe(
        "Only these collections: your own by name, shared ones as owner/name. Default: all you can read.",
      ),
  })
  .optional()
  .describe(
    "Filters; all given filters must hold. An unknown filter is refused (invalid_input), never ignored. Documents without a date never match a date filter.",
  );

/**
 * The filters as @quiver/search takes them: `publication_date: {after, before}` folded into
 * date_from/date_to; both forms of one bound, a malformed date or a range the wrong way round refused.
 */
export const searchFilters = ({
  publication_date: p = {},
  ...f
}: NonNullable<z.output<typeof filtersSchema>>): SearchFilters => {
  const [from, to] = (["after", "before"] as const).map((spec) => {
    const own = spec === "after" ? "date_from" : "date_to";
    if (p[spec] !== undefined && f[own] !== undefined)
      throw fail.invalidInput(
        `filters.publication_date.${spec} and filters.${own} are the same bound: give one.`,
        {
          suggestion: `Keep filters.${own} or filters.publication_date.${spec}, not both.`,
        },
      );
    const value = p[spec] ?? f[own];
    if (value !== undefined && !DATE.test(value.trim()))
      throw fail.invalidInput(`filters.${own} must be YYYY, YYYY-MM or YYYY-MM-DD, got "${value}".`, {
        suggestion: `For example "2019" or "2019-06-01".`,
      });
    return value;
  });
  if (from && to && from.trim() > to.trim().padEnd(10, "~"))
    throw fail.invalidInput(`filters.date_from (${from}) is after filters.date_to (${to}).`, {
      suggestion: "Swap the two dates.",
    });
  return {
    ...(from ? { dateFrom: from.trim() } : {}),
    ...(to ? { dateTo: to.trim() } : {}),
    ...(f.authors ? { authors: f.authors } : {}),
    ...(f.tags ? { tags: f.tags } : {}),
  };
};
