import { defineToolWith, fail, outcome } from "@quiver/core";
import { z } from "zod";
import type { PerplexityConfig } from "../config.js";
import * as agent from "../internal/agent-api.js";
import { DEEP_RESEARCH_POLICY } from "../internal/policy.js";
import { toResult, WebResultSchema } from "../internal/web-results.js";

/** One source of a research report: `n` is the number its `[n]` markers use. */
const ResearchSourceSchema = WebResultSchema.extend({
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
 * A response that ended other than `completed`, or without a report, is the call's failure.
 */
const researchOutput = (response: agent.AgentResponse): ResearchOutput => {
  const why = response.error?.message ? `: ${response.error.message}` : "";
  if (response.status !== "completed")
    throw fail.upstream(`Perplexity's research ${response.id} ended ${response.status}${why}.`, {
      retryable: false,
      suggestion: "Ask again later (a new run is billed again), or use perplexity_search_web for sources.",
    });
  const report = response.output
    .flatMap((item) => (item.type === "message" ? (item.content ?? []) : []))
    .flatMap((part) => (part.type === "output_text" ? [part.text ?? ""] : []))
    .join("\n\n")
    .trim();
  if (report === "")
    throw fail.upstream(`Perplexity's research ${response.id} completed without a report.`, {
      retryable: false,
      suggestion: "Ask again, or use perplexity_search_web for sources.",
    });
  const sources = response.output
    .flatMap((item) => (item.type === "search_results" ? (item.results ?? []) : []))
    .map((raw, i) => ({ n: raw.id ?? i + 1, ...toResult(raw) }))
    .filter((source, i, all) => all.findIndex((s) => s.n === source.n) === i)
    .sort((a, b) => a.n - b.n);
  const cost = response.usage?.cost?.total_cost;
  return {
    report,
    sources,
    ...(response.model ? { model: response.model } : {}),
    preset: agent.DEEP_RESEARCH_PRESET,
    ...(cost !== undefined ? { cost_usd: cost } : {}),
  };
};

const input = z.object({
  query: z.string().min(1).max(8_000).describe("The research question, with what the report should cover"),
});

/**
 * `perplexity_deep_research`: a cited research report from Perplexity's Agent API (preset `medium`,
 * the successor of `sonar-deep-research`), run in the background: the tool submits once, stores the
 * response id as its task's resume point, and polls until the run ends, reporting progress. An
 * aborted call (cancelled, timed out) asks Perplexity to stop the run; a run handed over to another
 * replica is left running for it. The submit is paid and never retried; only polls are.
 *
 * Use it for questions that need many sources and minutes of research; for one fact, use
 * `perplexity_search_web`.
 *
 * @example
 * await catalog.call("perplexity_deep_research", { query: "State of solid-state batteries in 2026: makers, densities, costs" });
 */
export const deepResearch = defineToolWith<PerplexityConfig>()({
  name: "perplexity_deep_research",
  title: "Deep research (Perplexity)",
  description:
    "Research a question in depth with Perplexity (many searches, minutes of work) and get a cited report with its sources. " +
    "Slow and billed per run: use it for broad questions that need a survey of sources, not for one fact (use perplexity_search_web). " +
    "Clients that support tasks should run it as a task and poll it.",
  category: "web_search",
  input,
  output: ResearchOutputSchema,
  examples: [
    {
      input: { query: "What is known about the long-term safety of GLP-1 agonists? Summarise the evidence." },
    },
  ],
  annotations: { readOnly: true, idempotent: false, openWorld: true },
  policy: DEEP_RESEARCH_POLICY,
  task: "optional",
  run: async ({ query }, ctx) => {
    const saved = ctx.task?.resumeFrom?.response_id;
    const resumed = typeof saved === "string" && saved !== "";
    const first = resumed
      ? { id: saved, status: "queued", output: [] }
      : await agent.submitResearch(ctx, query);
    const warn = (error: unknown) =>
      ctx.log("warning", "could not store the research's resume point", { error: String(error) });
    // Stored before the first poll: a replica that takes the task over polls this run, never submits again.
    if (!resumed) await ctx.task?.resume({ response_id: first.id }).catch(warn);
    const final = await agent.pollResearch(ctx, first).catch(async (error: unknown) => {
      // Given up (cancelled, a time limit, polls that kept failing): stop the paid run too, unless
      // another replica took the task over and polls it.
      if (!ctx.task?.handedOver()) await agent.cancelResearch(ctx, first.id);
      throw error;
    });
    const data = researchOutput(final);
    return outcome(data, {
      message: `Perplexity's research (preset ${agent.DEEP_RESEARCH_PRESET}) wrote a report with ${data.sources.length} source${data.sources.length === 1 ? "" : "s"}.`,
      instruction:
        "Relay the report's findings in your own words, keeping its [n] markers pointing at sources[n] (or replace them with the URLs).",
      source: `Perplexity Agent API (preset ${agent.DEEP_RESEARCH_PRESET})`,
    });
  },
});
