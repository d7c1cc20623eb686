/** ISO 8601 calendar dates: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, optionally followed by a time. */
const ISO_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ][0-9:.,]+(?:Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;

/**
 * A sortable `YYYY-MM-DD` key for an ISO 8601 date, or `undefined` when the text is not one. Missing parts are
 * filled from the start of the period (`"2020"` -> `2020-01-01`) or, with `bound: "end"`, its end
 * (`"2020"` -> `2020-12-31`), so that range filters on partial dates are inclusive.
 */
export function dateKey(text: string, bound: "start" | "end" = "start"): string | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day] = match;
  if (month !== undefined && (Number(month) < 1 || Number(month) > 12)) return undefined;
  if (day !== undefined && (Number(day) < 1 || Number(day) > 31)) return undefined;
  const end = bound === "end";
  return `${year}-${month ?? (end ? "12" : "01")}-${day ?? (end ? "31" : "01")}`;
}
