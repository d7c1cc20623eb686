import { fail } from "@quiver/core";
import { z } from "zod";
import type { AgentResponse } from "./agent-api.js";
import { toResult, WebResultSchema } from "./web-results.js";

/** One source of a research report: `n` is the number its `[n]` markers use. */
export const ResearchSourceSchema = WebResultSchema.extend({
  n: z.int().describe("The number of this source's [n] markers in the report"),
});

/** The output of `perplexity_deep_research`. */
export const ResearchOutputSchema = z.object({
  report: z.string().describe("Perplexity's research report, with [n] markers pointing at sources"),
  sources: z.array(ResearchSourceSchema).describe("The sources Perplexity searched, by marker number"),
  model: z.string().optional().describe("The model Perplexity ran the research with"),
  preset: z.string().describe("The Agent API preset (medium: Perplexity's deep research)"),
  cost_usd: z.number().optional().describe("What the run cost, as Perplexity reports it"),
});

/**
 * Output of `perplexity_deep_research`.
 *
 * @example
 * const report = (result.data as ResearchOutput).report;
 */
export type ResearchOutput = z.input<typeof ResearchOutputSchema>;

/**
 * The report of a completed response: the text of its `message` items' `output_text` parts, and
 * the sources of its `search_results` items, numbered by their `id` (the report's `[n]`), each once.
 */
export const researchOutput = (response: AgentResponse, preset: string): ResearchOutput => {
  const report = response.output
    .filter((item) => item.type === "message")
    .flatMap((item) => item.content ?? [])
    .filter((part) => part.type === "output_text")
    .map((part) => part.text ?? "")
    .join("\n\n")
    .trim();
  if (report === "")
    throw fail.upstream(`Perplexity's research ${response.id} completed without a report.`, {
      retryable: false,
      suggestion: "Ask again, or use perplexity_search_web for sources.",
    });
  const results = response.output.flatMap((item) =>
    item.type === "search_results" ? (item.results ?? []) : [],
  );
  const byNumber = new Map<number, z.input<typeof ResearchSourceSchema>>();
  for (const [i, raw] of results.entries()) {
    const n = raw.id ?? i + 1;
    if (!byNumber.has(n)) byNumber.set(n, { n, ...toResult(raw) });
  }
  const sources = [...byNumber.values()].sort((a, b) => a.n - b.n);
  const cost = response.usage?.cost?.total_cost;
  return {
    report,
    sources,
    ...(response.model ? { model: response.model } : {}),
    preset,
    ...(cost !== undefined ? { cost_usd: cost } : {}),
  };
};
