import { fail, type HttpClient } from "@quiver/core";
import { z } from "zod";
import type { AlphafoldConfig } from "../config.js";

/** What an upstream call needs from the tool context. */
export interface CallContext {
  readonly config: AlphafoldConfig;
  readonly http: HttpClient;
  readonly signal: AbortSignal;
}

const base = (url: string) => url.replace(/\/+$/, "");

/** One AlphaFold DB prediction entry; v6 names with the legacy v4 names as fallbacks. */
const entrySchema = z
  .looseObject({
    modelEntityId: z.string().optional(),
    entryId: z.string().optional(),
    uniprotAccession: z.string().optional(),
    uniprotId: z.string().optional(),
    uniprotDescription: z.string().optional(),
    gene: z.string().optional(),
    organismScientificName: z.string().optional(),
    sequence: z.string().optional(),
    uniprotSequence: z.string().optional(),
    sequenceStart: z.number().optional(),
    uniprotStart: z.number().optional(),
    latestVersion: z.number().optional(),
    globalMetricValue: z.number().optional(),
    fractionPlddtVeryHigh: z.number().optional(),
    fractionPlddtConfident: z.number().optional(),
    fractionPlddtLow: z.number().optional(),
    fractionPlddtVeryLow: z.number().optional(),
    pdbUrl: z.string().optional(),
    cifUrl: z.string().optional(),
    plddtDocUrl: z.string().optional(),
    paeDocUrl: z.string().optional(),
  })
  .transform((e) => ({
    modelId: e.modelEntityId ?? e.entryId,
    accession: e.uniprotAccession,
    uniprotId: e.uniprotId,
    description: e.uniprotDescription,
    gene: e.gene,
    organism: e.organismScientificName,
    sequence: e.sequence ?? e.uniprotSequence,
    start: e.sequenceStart ?? e.uniprotStart ?? 1,
    version: e.latestVersion,
    global: e.globalMetricValue,
    fractions:
      e.fractionPlddtVeryHigh !== undefined
        ? {
            very_high: e.fractionPlddtVeryHigh,
            confident: e.fractionPlddtConfident ?? 0,
            low: e.fractionPlddtLow ?? 0,
            very_low: e.fractionPlddtVeryLow ?? 0,
          }
        : undefined,
    pdbUrl: e.pdbUrl,
    cifUrl: e.cifUrl,
    plddtUrl: e.plddtDocUrl,
    paeUrl: e.paeDocUrl,
  }));

/** A normalised AlphaFold DB entry. */
export type AfdbEntry = z.output<typeof entrySchema>;

/**
 * The AlphaFold DB entry for an accession (`GET /api/prediction/{accession}`): the array element whose
 * accession (or model id) matches, since the order is not guaranteed. Undefined when AFDB has none (404).
 */
export const fetchAfdbEntry = async (ctx: CallContext, accession: string): Promise<AfdbEntry | undefined> => {
  const res = await ctx.http.request({
    url: `${base(ctx.config.alphafoldUrl)}/api/prediction/${encodeURIComponent(accession)}`,
    signal: ctx.signal,
    acceptStatus: [404],
  });
  if (res.status === 404) return undefined;
  const entries = res.json(z.array(entrySchema));
  return (
    entries.find((e) => e.accession?.toUpperCase() === accession) ??
    entries.find((e) => e.modelId?.toUpperCase() === `AF-${accession}-F1`) ??
    (accession.includes("-") ? undefined : entries.find((e) => e.accession && !e.accession.includes("-")))
  );
};

/** Downloads a text file (a structure) from a URL the AFDB entry gave. */
export const fetchText = async (ctx: CallContext, url: string): Promise<string> => {
  const res = await ctx.http.request({ url, signal: ctx.signal });
  const type = res.header("content-type") ?? "";
  if (/html/i.test(type) || /^\s*<(?:!doctype|html)/i.test(res.body)) {
    throw fail.upstream(`AlphaFold DB returned an HTML page instead of a structure file for ${url}.`, {
      retryable: false,
      suggestion: "AlphaFold DB may be down for maintenance; try again later.",
    });
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
    throw fail.upstream("AlphaFold DB's confidence file has different numbers of residues and scores.", {
      retryable: false,
    });
  }
  return { residues: doc.residueNumber, plddt: doc.confidenceScore };
};

const uniparcSchema = z.looseObject({
  uniParcId: z.string().optional(),
  // UniProt's error answers: `{ url, messages: [...] }`; other servers use `{ error: {...} }`.
  messages: z.array(z.unknown()).optional(),
  error: z.unknown().optional(),
  uniParcCrossReferences: z
    .array(
      z.looseObject({
        database: z.string().optional(),
        id: z.string().optional(),
        active: z.boolean().optional(),
      }),
    )
    .optional(),
});

/**
 * The UniProt accession of an exact sequence match (UniParc), preferring an active Swiss-Prot entry,
 * then an active TrEMBL one. Undefined when UniProt has no identical sequence (400/404).
 */
export const findExactAccession = async (
  ctx: CallContext,
  sequence: string,
): Promise<{ accession: string; reviewed: boolean; uniparc?: string } | undefined> => {
  const res = await ctx.http.request({
    url: `${base(ctx.config.uniprotUrl)}/uniparc/sequence`,
    query: { format: "json", sequence },
    signal: ctx.signal,
    acceptStatus: [400, 404],
  });
  if (res.status === 400 || res.status === 404) return undefined;
  const body = res.json(uniparcSchema);
  // An HTTP 200 that is not a UniParc entry is a failed lookup, not "no exact match": folding the
  // sequence with ESMFold then would hide that the known structure was never looked for.
  if (body.uniParcId === undefined && body.uniParcCrossReferences === undefined) {
    const said =
      body.messages?.join("; ") ?? (body.error === undefined ? undefined : JSON.stringify(body.error));
    throw fail.upstream(
      `UniProt's exact-sequence lookup (UniParc) answered HTTP ${res.status} without an entry${said ? `: ${said.slice(0, 200)}` : ""}.`,
      {
        retryable: true,
        suggestion:
          "UniProt may be having trouble; try again shortly, or give the UniProt accession instead of the sequence.",
      },
    );
  }
  const refs = (body.uniParcCrossReferences ?? []).filter((r) => r.active !== false && r.id);
  const swiss = refs.find((r) => r.database === "UniProtKB/Swiss-Prot");
  const trembl = refs.find((r) => r.database === "UniProtKB/TrEMBL");
  const pick = swiss ?? trembl;
  if (!pick?.id) return undefined;
  return {
    accession: pick.id,
    reviewed: pick === swiss,
    ...(body.uniParcId ? { uniparc: body.uniParcId } : {}),
  };
};

/**
 * Folds a sequence with ESMFold (`POST /foldSequence/v1/pdb/`, body = the sequence); returns PDB text.
 * ESMFold sends nothing until the fold is done, so the headers (and body) may take up to
 * `esmfoldTimeoutMs` on the catalog's client, whose own waits are 30 s.
 */
export const foldWithEsmfold = async (ctx: CallContext, sequence: string): Promise<string> => {
  const res = await ctx.http.request({
    method: "POST",
    url: `${base(ctx.config.esmfoldUrl)}/foldSequence/v1/pdb/`,
    headers: { "content-type": "text/plain" },
    body: sequence,
    signal: ctx.signal,
    timeoutMs: ctx.config.esmfoldTimeoutMs,
    headersTimeoutMs: ctx.config.esmfoldTimeoutMs,
    bodyTimeoutMs: ctx.config.esmfoldTimeoutMs,
  });
  if (!/^(?:HEADER|ATOM|MODEL|REMARK|PARENT|TITLE)/m.test(res.body)) {
    throw fail.upstream("ESMFold answered without a PDB structure.", {
      retryable: true,
      suggestion: "ESMFold's answer was broken; try again in a moment.",
    });
  }
  return res.body;
};
