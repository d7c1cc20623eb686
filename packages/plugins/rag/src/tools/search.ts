import { defineToolWith, outcome } from "@quiver/core";
import { z } from "zod";
import { backendOf, type RagConfig } from "../config.js";
import type { RagResources } from "../internal/backends/embedded-backend.js";

/** An optional filter of the search: a name of at most `max` characters. */
const filter = (max: number, text: string) => z.string().min(1).max(max).optional().describe(text);

const input = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .describe("What to look for in the course material, in the student's words."),
  asignatura: filter(
    200,
    "Only material of this subject (e.g. metaheuristicas). Leave it out to use the student's current subject.",
  ),
  tipo_documento: filter(100, "Only this kind of document (e.g. guia_docente, apuntes, examen, practicas)."),
  top_k: z.number().int().min(1).max(50).optional().describe("How many results, 1 to 50 (default 5)."),
});

/** One search result: the text, where it comes from, and how well it matches (higher is better). */
const ragResultSchema = z.object({
  content: z.string().describe("The matching passage"),
  metadata: z
    .looseObject({
      source: z.string().nullable().describe("Document the passage comes from"),
      asignatura: z.string().nullable().describe("Subject the document belongs to"),
    })
    .describe("Where the passage comes from, plus any other fields the backend gives"),
  score: z.number().nullable().describe("Relevance, higher is better (null when the backend gives none)"),
});

/** What `rag_search` returns (the original chatbot's shape, inside the envelope). */
export const ragOutputSchema = z.object({
  query: z.string().describe("The query searched"),
  total_results: z.number().int().describe("How many results the backend reports"),
  results: z.array(ragResultSchema).describe("The results, best first"),
});

/** What `rag_search` returns. */
export type RagOutput = z.output<typeof ragOutputSchema>;
/** One normalised result. */
export type RagResult = z.output<typeof ragResultSchema>;
/** A search as the backends receive it: the tool's input, `top_k` filled in as `topK`. */
export type RagQuery = Omit<z.output<typeof input>, "top_k"> & { readonly topK: number };

/**
 * `rag_search`: the most relevant passages of the course material, from the HTTP RAG service or the
 * embedded index the settings select. The session's `asignatura` fills the field when the model leaves
 * it out (`createRagPlugin({ sessionAsignatura: "override" })` hides it instead).
 *
 * @example
 * await catalog.call("rag_search", { query: "criterios de evaluación" }, { session: { values: { asignatura: "metaheuristicas" } } })
 */
export const ragSearch = defineToolWith<RagConfig, RagResources>()({
  name: "rag_search",
  title: "Course material search",
  description:
    "Searches the course material (lecture notes, teaching guides, exercises, papers) and returns the most " +
    "relevant passages with their source and a relevance score. Filters by subject (asignatura) and document " +
    "type. Use this when a student asks about the content of a subject or needs an explanation grounded in " +
    "the course's own material.",
  category: "course_material",
  input,
  output: ragOutputSchema,
  examples: [
    { input: { query: "¿Cómo se evalúa la asignatura?", asignatura: "metaheuristicas" } },
    { input: { query: "algoritmos genéticos y búsqueda local", top_k: 3 } },
  ],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  policy: {
    timeout: "30s",
    // Two retries, like every tool by default: a service that answers 503 twice and then recovers is found.
    retry: { times: 2 },
    cache: false,
    breaker: { failures: 5, openFor: "30s" },
    maxOutputChars: 20_000,
    fallback: {
      // Course material changes between terms, not between calls: the last passages found for the same
      // question (same caller, subject and filters), marked stale with their age, beat no passages.
      stale: true,
      guidance:
        "The course material could not be searched. Answer from your own knowledge, say that you could not check the course material, and suggest the student consult it.",
    },
  },
  instruction:
    "Answer from these passages and cite each one you use by its source. If none is relevant, say the course " +
    "material does not cover it rather than guessing.",
  run: async (args, ctx) => {
    const { top_k, ...rest } = args;
    const asignatura = args.asignatura?.trim() || undefined;
    const q: RagQuery = { ...rest, asignatura, topK: top_k ?? ctx.config.defaultTopK };
    const backend = backendOf(ctx.config);
    // The HTTP client is loaded at the first HTTP search, not when the tool is listed.
    const data =
      backend === "http"
        ? await import("../internal/backends/http-backend.js").then((m) =>
            m.searchHttp(ctx.http, ctx.config, q, ctx.signal),
          )
        : await (await ctx.resources.embedded()).search(q);
    const scope = [asignatura && `subject ${asignatura}`, q.tipo_documento && `type ${q.tipo_documento}`];
    const inScope = scope.some(Boolean) ? ` in ${scope.filter(Boolean).join(", ")}` : "";
    const { results, total_results: total } = data;
    const of = total > results.length ? ` (of ${total})` : "";
    return outcome(data, {
      message:
        results.length > 0
          ? `Found ${results.length} passages${of} for "${args.query}"${inScope}.`
          : `No course material matches "${args.query}"${inScope}.`,
      source: backend === "http" ? `RAG service ${new URL(ctx.config.serviceUrl!).origin}` : "embedded index",
    });
  },
});
