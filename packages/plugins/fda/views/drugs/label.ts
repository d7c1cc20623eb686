// A drug's full label (the `fda://label/{set_id}` resource, openFDA's JSON record) as readable
// sections: each field of text (indications, dosage, warnings ...) under its name as a heading.

/** The record's fields that are bookkeeping, not label text. */
const SKIP = new Set(["id", "set_id", "version", "effective_time", "openfda", "spl_product_data_elements"]);

/** A field name as a heading: `indications_and_usage` → "Indications and usage". */
const heading = (key: string) => {
  const words = key.replace(/_table$/, " (table)").replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The label's text sections, in the record's order: [heading, paragraphs]. */
export const labelSections = (record: Record<string, unknown>): Array<[string, string[]]> =>
  Object.entries(record)
    .filter(([k, v]) => !SKIP.has(k) && Array.isArray(v) && v.every((p) => typeof p === "string"))
    .map(([k, v]) => [heading(k), v as string[]]);

/** The label's title: its brand (or generic) name from the record's `openfda` block. */
export const labelTitle = (record: Record<string, unknown>): string => {
  const openfda = (record.openfda ?? {}) as { brand_name?: string[]; generic_name?: string[] };
  return openfda.brand_name?.[0] ?? openfda.generic_name?.[0] ?? "Drug label";
};
