import { z } from "zod";

/** One search result: the text, where it comes from, and how well it matches (higher is better). */
export const ragResultSchema = z.object({
  content: z.string().describe("The matching passage"),
  metadata: z
    .object({
      source: z.string().nullable().describe("Document the passage comes from"),
      asignatura: z.string().nullable().describe("Subject the document belongs to"),
    })
    .catchall(z.unknown())
    .describe("Where the passage comes from, plus any other fields the backend gives"),
  score: z.number().nullable().describe("Relevance, higher is better (null when the backend gives none)"),
});

/** What `rag_search` returns (the original chatbot's shape, inside the envelope). */
export const ragOutputSchema = z.object({
  query: z.string().describe("The query searched"),
  total_results: z.number().int().describe("How many results the backend reports"),
  results: z.array(ragResultSchema).describe("The results, best first"),
});

/** One normalised result. */
export type RagResult = z.output<typeof ragResultSchema>;
/** What `rag_search` returns. */
export type RagOutput = z.output<typeof ragOutputSchema>;

/** A search as the backends receive it. */
export interface RagQuery {
  readonly query: string;
  readonly asignatura?: string | undefined;
  readonly tipo_documento?: string | undefined;
  readonly topK: number;
}
