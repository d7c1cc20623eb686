import { createHash } from "node:crypto";
import { fail, type ToolContext, ToolFailure } from "@quiver/core";
import { z } from "zod";
import type { AlphafoldConfig } from "../config.js";

/** What an upstream call needs from the tool context. */
export type CallContext = Pick<ToolContext<AlphafoldConfig>, "config" | "http" | "signal">;

/** The message of an upstream's failure, to note before trying the next source; cancellation and bugs are rethrown, not hidden. */
export const failureMessage = (e: unknown): string => {
  if (ToolFailure.isInstance(e)) return e.message;
  throw e;
};

/** One AlphaFold DB prediction entry; v6 names with the legacy v4 names as fallbacks. */
const entrySchema = z
  .looseObject({
    modelEntityId: z.string().optional(),
    entryId: z.string().optional(),
    uniprotAccession: z.string().optional(),
    uniprotDescription: z.string().optional(),
    gene: z.string().optional(),
    organismScientificName: z.string().optional(),
    sequence: z.string().optional(),
    uniprotSequence: z.string().optional(),
    sequenceStart: z.number().optional(),
    uniprotStart: z.number().optional(),
    globalMetricValue: z.number().optional(),
    fractionPlddtVeryHigh: z.number().optional(),
    fractionPlddtConfident: z.number().optional(),
    fractionPlddtLow: z.number().optional(),
    fractionPlddtVeryLow: z.number().optional(),
    pdbUrl: z.string().optional(),
    cifUrl: z.string().optional(),
    plddtDocUrl: z.string().optional(),
  })
  .transform((e) => ({
    ...e,
    modelId: e.modelEntityId ?? e.entryId,
    sequence: e.sequence ?? e.uniprotSequence,
    start: e.sequenceStart ?? e.uniprotStart ?? 1,
  }));

/** An AlphaFold DB entry, the v6 names of model id, sequence and start filled from the v4 ones. */
export type AfdbEntry = z.output<typeof entrySchema>;

/**
 * The AlphaFold DB entry for an accession (`GET /api/prediction/{accession}`): the array element whose
 * accession (or model id) matches, since the order is not guaranteed. Undefined when AFDB has none (404).
 */
export const fetchAfdbEntry = async (ctx: CallContext, accession: string): Promise<AfdbEntry | undefined> => {
  const { config, http, signal } = ctx;
  const url = `/api/prediction/${encodeURIComponent(accession)}`;
  const res = await http.request({ baseUrl: config.alphafoldUrl, url, signal, acceptStatus: [404] });
  if (res.status === 404) return undefined;
  const entries = res.json(z.array(entrySchema));
  return (
    entries.find((e) => e.uniprotAccession?.toUpperCase() === accession) ??
    entries.find((e) => e.modelId?.toUpperCase() === `AF-${accession}-F1`) ??
    (accession.includes("-")
      ? undefined
      : entries.find((e) => e.uniprotAccession && !e.uniprotAccession.includes("-")))
  );
};

/** Downloads a text file (a structure) from a URL the AFDB entry gave. */
export const fetchText = async (ctx: CallContext, url: string): Promise<string> => {
  const res = await ctx.http.request({ url, signal: ctx.signal });
  if (/html/i.test(res.header("content-type") ?? "") || /^\s*<(?:!doctype|html)/i.test(res.body)) {
    const message = `AlphaFold DB returned an HTML page instead of a structure file for ${url}.`;
    const suggestion = "AlphaFold DB may be down for maintenance; try again later.";
    throw fail.upstream(message, { retryable: false, suggestion });
  }
  return res.body;
};

const confidenceSchema = z.object({
  residueNumber: z.array(z.number()),
  confidenceScore: z.array(z.number()),
});

/** The per-residue confidence JSON (`plddtDocUrl`): residue numbers and pLDDT scores. */
export const fetchConfidence = async (ctx: CallContext, url: string) => {
  const doc = await ctx.http.json({ url, signal: ctx.signal, schema: confidenceSchema });
  if (doc.residueNumber.length !== doc.confidenceScore.length) {
    const message = `AlphaFold DB's confidence file has different numbers of residues and scores.`;
    throw fail.upstream(message, { retryable: false });
  }
  return { residues: doc.residueNumber, plddt: doc.confidenceScore };
};

/** The databases whose cross-references are UniProt accessions, best first. */
const UNIPROT_DATABASES = ["UniProtKB/Swiss-Prot", "UniProtKB/TrEMBL"] as const;

/** A UniParc search hit: a light entry, which holds no cross-references (UniProt's UniParc split, 2024). */
const uniparcHit = z.looseObject({
  uniParcId: z.string(),
  sequence: z.looseObject({ value: z.string(), md5: z.string() }).partial().optional(),
});

/** A UniParc cross-reference: a database entry of the same sequence. */
const crossReference = z.looseObject({ database: z.string(), id: z.string(), active: z.boolean() }).partial();

/** A UniProt list request: its path and query, and what its failure says (`what` answered without `missing`). */
type ListRequest = { url: string; query: Record<string, string>; what: string; missing: string };

/**
 * The `results` of a UniProt list request (`{ results: [...] }`). An HTTP 200 without them (UniProt's
 * error answer `{ url, messages: [...] }`, other servers' `{ error: {...} }`) is a failed lookup, not
 * "no exact match": folding the sequence with ESMFold then would hide that the known structure was
 * never looked for.
 */
const uniprotResults = async <T extends z.ZodType>(ctx: CallContext, item: T, request: ListRequest) => {
  const { url, query, what, missing } = request;
  const res = await ctx.http.request({ baseUrl: ctx.config.uniprotUrl, url, query, signal: ctx.signal });
  const list = z.looseObject({ messages: z.array(z.unknown()), error: z.unknown(), results: z.array(item) });
  const body = res.json(list.partial());
  if (body.results !== undefined) return body.results;
  const said =
    body.messages?.join("; ") ?? (body.error === undefined ? undefined : JSON.stringify(body.error));
  const message = `UniProt's ${what} answered HTTP ${res.status} without ${missing}${said ? `: ${said.slice(0, 200)}` : ""}.`;
  const suggestion = `UniProt may be having trouble; try again shortly, or give the UniProt accession instead of the sequence.`;
  throw fail.upstream(message, { suggestion });
};

/**
 * The UniProt accession of an exact sequence match, preferring an active Swiss-Prot entry, then an
 * active TrEMBL one; undefined when UniProt has no identical sequence. As UniProt's REST documentation
 * describes it since UniParc entries were split from their cross-references: the UniParc entry whose
 * checksum is the sequence's MD5 (`GET /uniparc/search?query=checksum:<MD5>`), then its cross-references
 * (`GET /uniparc/{upi}/databases?dbTypes=…&active=true`).
 */
export const findExactAccession = async (ctx: CallContext, sequence: string): Promise<string | undefined> => {
  const md5 = createHash("md5").update(sequence).digest("hex").toUpperCase();
  const found = await uniprotResults(ctx, uniparcHit, {
    url: "/uniparc/search",
    query: { query: `checksum:${md5}`, format: "json", size: "5" },
    what: "UniParc search",
    missing: "a result list",
  });
  const entry =
    found.find((e) => e.sequence?.value === sequence) ??
    found.find((e) => e.sequence?.md5?.toUpperCase() === md5);
  if (!entry) return undefined;
  const databases = await uniprotResults(ctx, crossReference, {
    url: `/uniparc/${encodeURIComponent(entry.uniParcId)}/databases`,
    query: { format: "json", dbTypes: UNIPROT_DATABASES.join(","), active: "true", size: "100" },
    what: "UniParc cross-references",
    missing: "a cross-reference list",
  });
  const refs = databases.filter((r) => r.active !== false && r.id);
  return UNIPROT_DATABASES.map((db) => refs.find((r) => r.database === db)).find(Boolean)?.id;
};
