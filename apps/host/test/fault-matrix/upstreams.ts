import { type Emulator, startEmulator } from "@quiver/testing";
import {
  esmfoldPdb,
  recordedEntry,
  startAfdbEmulator,
} from "../../../../packages/plugins/alphafold/test/support/afdb-emulator.js";
import { routeContext7 } from "../../../../packages/plugins/context7/test/context7-upstream.js";
import { startOpenFdaEmulator } from "../../../../packages/plugins/fda/test/support/openfda-emulator.js";
import { routePerplexity } from "../../../../packages/plugins/perplexity/test/perplexity-upstream.js";
import { completion, openQuestions } from "../../../../packages/plugins/testgen/test/llm-fixtures.js";

/**
 * The API keys the matrix configures, one per plugin setting that holds a secret. The secrets canary
 * sets them to canary strings; the matrix alone to plain test values.
 */
export interface MatrixKeys {
  readonly CONTEXT7_API_KEY: string;
  readonly PERPLEXITY_API_KEY: string;
  readonly RAG_API_KEY: string;
  readonly LLM_API_KEY: string;
  readonly OPENFDA_API_KEY: string;
  /** guia's MongoDB connection string (its password is the secret); guia is called once, not faulted. */
  readonly MONGODB_URI: string;
}

/** The emulated upstreams of every plugin that calls one, started together. */
export interface Upstreams {
  readonly context7: Emulator;
  readonly perplexity: Emulator;
  readonly rag: Emulator;
  readonly llm: Emulator;
  readonly fda: Emulator;
  /** AlphaFold DB (metadata and files). */
  readonly afdb: Emulator;
  /** UniProt (UniParc) and ESMFold. */
  readonly fold: Emulator;
  /** Another origin that redirects point to: it must never receive a request with a key. */
  readonly elsewhere: Emulator;
  readonly all: ReadonlyArray<Emulator>;
  close(): Promise<void>;
}

/** TP53's sequence: UniParc maps it to P04637, an accession whose AFDB paths no fault touches. */
export const P04637_SEQUENCE: string = (recordedEntry("P04637") as { sequence: string }).sequence;

/** The RAG service's answer (the original chatbot's shape). */
const RAG_ANSWER = {
  query: "q",
  total_results: 1,
  results: [
    {
      content: "La evaluación ordinaria consta de un examen final (50%) y prácticas (50%).",
      metadata: { source: "guia.pdf", asignatura: "metaheuristicas" },
      score: 0.83,
    },
  ],
};

/**
 * Starts one emulator per upstream, each serving the documented shapes with the plugins' own recorded
 * fixtures (the plugins' test helpers), and the "elsewhere" origin for redirects.
 */
export const startUpstreams = async (keys: MatrixKeys): Promise<Upstreams> => {
  const context7 = await startEmulator();
  routeContext7(context7);
  const perplexity = await startEmulator();
  routePerplexity(perplexity, keys.PERPLEXITY_API_KEY);
  const rag = await startEmulator();
  rag.route("POST", "/search", { json: RAG_ANSWER });
  const llm = await startEmulator();
  llm.route("POST", "/v1/chat/completions", { json: completion(openQuestions(3)) });
  const { up: fda } = await startOpenFdaEmulator();
  const { up: afdb } = await startAfdbEmulator();
  const { up: fold } = await startAfdbEmulator({ linksTo: afdb.url });
  // P04637's model files (the cassettes hold its entry only), so the UniParc row's match is complete.
  const p53 = recordedEntry("P04637") as { sequence: string; pdbUrl: string; plddtDocUrl: string };
  const plddt = [...p53.sequence].map((_, i) => 50 + ((i * 7) % 50));
  afdb.route("GET", new URL(p53.pdbUrl).pathname, {
    text: esmfoldPdb(
      p53.sequence,
      plddt.map((v) => v * 100),
    ),
  });
  afdb.route("GET", new URL(p53.plddtDocUrl).pathname, {
    json: { residueNumber: plddt.map((_, i) => i + 1), confidenceScore: plddt },
  });
  const elsewhere = await startEmulator();
  elsewhere.route("*", /.*/, { json: { moved: true } });
  const all = [context7, perplexity, rag, llm, fda, afdb, fold, elsewhere];
  return {
    context7,
    perplexity,
    rag,
    llm,
    fda,
    afdb,
    fold,
    elsewhere,
    all,
    close: async () => {
      await Promise.all(all.map((u) => u.close()));
    },
  };
};

/**
 * The environment and config-file options that point every plugin at its emulator with the given
 * keys (the keys through each plugin's own environment variable, as users set them).
 */
export const pluginSettings = (up: Upstreams, keys: MatrixKeys) => ({
  env: {
    ...keys,
    CONTEXT7_API_URL: `${up.context7.url}/api`,
    PERPLEXITY_BASE_URL: up.perplexity.url,
    RAG_SERVICE_URL: up.rag.url,
    LLM_BASE_URL: `${up.llm.url}/v1`,
    LLM_MODEL: "gpt-4o-mini",
  },
  options: {
    fda: { baseUrl: up.fda.url },
    alphafold: { alphafoldUrl: up.afdb.url, uniprotUrl: up.fold.url, esmfoldUrl: up.fold.url },
  },
});
