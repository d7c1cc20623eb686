import { z } from "zod";
import type { Criteria } from "./criteria.js";
import type { OpenFdaClient } from "./openfda-client.js";
import { applicationNumbersSearch, phraseText, type Search } from "./query.js";

/** A field of a record that is left out when it is missing or malformed. */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
/** A list of `item`, left out when it is missing or malformed. */
const list = <T extends z.ZodType>(item: T) => lenient(z.array(item));
const strings = list(z.string());

/** The `openfda` block: lists of strings by field (`brand_name`, `substance_name`, `pharm_class_epc`, …). */
const openfdaBlock = lenient(z.record(z.string(), strings));

const drugsfdaRecord = z.looseObject({
  application_number: z.string(),
  sponsor_name: lenient(z.string()),
  openfda: openfdaBlock,
  products: list(
    z.looseObject({
      brand_name: z.string().optional(),
      active_ingredients: z.array(z.object({ name: z.string() })).optional(),
      route: z.string().optional(),
    }),
  ),
  submissions: list(
    z.looseObject({
      submission_type: z.string().optional(),
      submission_status: z.string().optional(),
      submission_status_date: z.string().optional(),
    }),
  ),
});

/** A Drugs@FDA record: one application. */
type Application = z.output<typeof drugsfdaRecord>;

const labelRecord = z.looseObject({
  set_id: z.string().optional(),
  openfda: openfdaBlock,
  indications_and_usage: strings,
});

/** A text field of a match, left out when openFDA has none. */
const optionalText = (what: string) => z.string().optional().describe(what);

/** One drug in the results, from Drugs@FDA (an application) or a drug label (the answer's `endpoint`). */
export const matchSchema = z.object({
  application_number: optionalText("FDA application (NDA, ANDA or BLA number)."),
  sponsor: optionalText("Company holding the application."),
  labeler: optionalText(
    "Company named on the drug's labels (openFDA manufacturer_name), often spelt out where sponsor is short.",
  ),
  brand_names: z.array(z.string()).describe("Brand names."),
  generic_names: z.array(z.string()).describe("Generic names (else the active ingredients)."),
  routes: z.array(z.string()).describe("Routes of administration."),
  pharmacologic_classes: z.array(z.string()).describe("Pharmacologic classes."),
  original_approval_date: optionalText("Date of original approval (YYYY-MM-DD)."),
  indication: optionalText("Start of the label's Indications and Usage section."),
  url: z.string().describe("Where to read more (Drugs@FDA or DailyMed)."),
});

/**
 * One drug in the results, with the URI of its full label (`fda://label/{set_id}`) when openFDA names one: the
 * answer carries it in `metadata.label_uris`, not in `data`, so the output schema stays within its budget.
 */
export type Match = z.output<typeof matchSchema> & { readonly label_uri?: string };

const INDICATION_CHARS = 400;

/** The text cut to `max` characters, an ellipsis ending a cut one. */
const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The values trimmed, without blanks and repeats (case-insensitive: the first spelling wins). */
const uniq = (values: ReadonlyArray<string | undefined>): string[] => {
  const trimmed = values.flatMap((v) => v?.trim() || []);
  return trimmed.filter((t, i) => trimmed.findIndex((u) => u.toUpperCase() === t.toUpperCase()) === i);
};

/** YYYYMMDD → YYYY-MM-DD (anything else unchanged). */
const isoDate = (d: string | undefined): string | undefined =>
  d && /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : d;

/** The original approval date (ORIG submission with status AP) of a Drugs@FDA record, YYYYMMDD. */
const originalApproval = (submissions: Application["submissions"]): string | undefined =>
  submissions
    ?.filter((s) => s.submission_type === "ORIG" && s.submission_status === "AP" && s.submission_status_date)
    .map((s) => s.submission_status_date!)
    .sort()[0];

const classes = (o: z.output<typeof openfdaBlock>) =>
  uniq([...(o?.pharm_class_epc ?? []), ...(o?.pharm_class_moa ?? []), ...(o?.pharm_class_pe ?? [])]);

/** The URI of the full label with this SPL set id (the plugin's resource `fda://label/{set_id}`). */
const labelUri = (setId: string): string => `fda://label/${encodeURIComponent(setId)}`;

/** The Drugs@FDA records of a page; one without an application number is left out. */
const applications = (results: ReadonlyArray<unknown>) =>
  results.flatMap((raw) => drugsfdaRecord.safeParse(raw).data ?? []);

/** Maps a Drugs@FDA record. */
const fromDrugsfda = (r: Application): Match => {
  const o = r.openfda;
  const products = r.products ?? [];
  const ingredients = products.flatMap((p) => (p.active_ingredients ?? []).map((a) => a.name));
  const approval = originalApproval(r.submissions);
  return {
    application_number: r.application_number,
    ...(r.sponsor_name ? { sponsor: r.sponsor_name } : {}),
    ...(o?.manufacturer_name?.[0] ? { labeler: o.manufacturer_name[0] } : {}),
    brand_names: uniq([...products.map((p) => p.brand_name), ...(o?.brand_name ?? [])]),
    generic_names: uniq(o?.generic_name ?? ingredients),
    routes: uniq([...products.map((p) => p.route), ...(o?.route ?? [])]),
    pharmacologic_classes: classes(o),
    ...(approval ? { original_approval_date: isoDate(approval)! } : {}),
    url: `https://www.accessdata.fda.gov/scripts/cder/daf/index.cfm?event=overview.process&ApplNo=${r.application_number.replace(/\D/g, "")}`,
    ...(o?.spl_set_id?.[0] ? { label_uri: labelUri(o.spl_set_id[0]) } : {}),
  };
};

/** Maps a drug-label record; `undefined` when it is not a label. */
const fromLabel = (raw: unknown): Match | undefined => {
  const r = labelRecord.safeParse(raw).data;
  if (!r) return undefined;
  const o = r.openfda;
  const indication = r.indications_and_usage?.join(" ").replace(/\s+/g, " ").trim();
  const application = o?.application_number?.[0];
  const setId = r.set_id ?? o?.spl_set_id?.[0];
  return {
    ...(application ? { application_number: application } : {}),
    ...(o?.manufacturer_name?.[0] ? { labeler: o.manufacturer_name[0] } : {}),
    brand_names: uniq(o?.brand_name ?? []),
    generic_names: uniq(o?.generic_name ?? o?.substance_name ?? []),
    routes: uniq(o?.route ?? []),
    pharmacologic_classes: classes(o),
    ...(indication ? { indication: clip(indication, INDICATION_CHARS) } : {}),
    url: setId
      ? `https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid=${encodeURIComponent(setId)}`
      : "https://open.fda.gov/apis/drug/label/",
    ...(setId ? { label_uri: labelUri(setId) } : {}),
  };
};

/** The lower-case words of a text as openFDA's analyzer splits it, each between spaces (none: " "). */
const words = (s: string): string => ` ${s.toLowerCase()} `.replace(/[^\p{L}\p{N}]+/gu, " ");

/** Whether `phrase` occurs as a contiguous word sequence in `text` (openFDA's phrase match). */
const phraseMatches = (text: string, phrase: string): boolean =>
  words(phrase) !== " " && words(text).includes(words(phrase));

/**
 * Whether an application's sponsor matches a sponsor criterion the way the drugsfda search matches
 * it: the words of the value in `sponsor_name` or in one of the `openfda.manufacturer_name` values.
 */
const sponsorMatches = (r: Application, sponsor: string): boolean =>
  [r.sponsor_name ?? "", ...(r.openfda?.manufacturer_name ?? [])].some((n) => phraseMatches(n, sponsor));

/** Whether a date (YYYYMMDD or YYYY-MM-DD) is in the approval-year range. */
const yearOk = (date: string | undefined, y: Criteria["approval_year"]): boolean => {
  const year = Number(date?.slice(0, 4));
  return !y || (date !== undefined && year >= (y.after ?? 0) && year <= (y.before ?? Infinity));
};

/**
 * The matches of a page of the search's records (one that is not a record of its endpoint left out),
 * checked for the criteria the search deferred, and an `unmet_constraints` line for the labels that
 * could not be checked. On Drugs@FDA that is the exact year of original approval; on labels the sponsor
 * and approval year are checked on each label's Drugs@FDA application (one more request for all).
 */
export const matchesOf = async (
  client: OpenFdaClient,
  signal: AbortSignal,
  results: ReadonlyArray<unknown>,
  { endpoint, deferred }: Search,
  c: Criteria,
) => {
  if (endpoint === "drugsfda") {
    const matches = applications(results).map(fromDrugsfda);
    const inYears = (m: Match) => deferred.length === 0 || yearOk(m.original_approval_date, c.approval_year);
    return { matches: matches.filter(inYears), unmet: [] };
  }
  const labels = results.flatMap((raw) => fromLabel(raw) ?? []);
  const apps = [...new Set(labels.flatMap((m) => m.application_number ?? []))];
  if (deferred.length === 0 || labels.length === 0) return { matches: labels, unmet: [] };
  const search = { endpoint: "drugsfda", search: applicationNumbersSearch(apps) } as const;
  const page = apps.length === 0 ? { results: [] } : await client.search(search, apps.length, signal);
  const records = new Map(applications(page.results).map((r) => [r.application_number, r]));
  const matches: Match[] = [];
  for (const m of labels) {
    const r = records.get(m.application_number ?? "");
    if (!r) continue;
    const { sponsor, original_approval_date } = fromDrugsfda(r);
    // The value as it was cleaned for openFDA, so the check agrees with what the search would match.
    if (deferred.includes("sponsor") && !sponsorMatches(r, phraseText(c.sponsor!))) continue;
    if (deferred.includes("approval_year") && !yearOk(original_approval_date, c.approval_year)) continue;
    matches.push({ ...m, sponsor, original_approval_date });
  }
  const unverifiable = labels.length - labels.filter((m) => records.has(m.application_number ?? "")).length;
  const unmet = `${deferred.join(" and ")}: ${unverifiable} label(s) have no Drugs@FDA application to check against (e.g. OTC monograph products) and were left out.`;
  return { matches, unmet: unverifiable > 0 ? [unmet] : [] };
};
