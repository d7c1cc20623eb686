import { defineToolWith, fail, outcome } from "@quiver/core";
import { z } from "zod";
import type { PerplexityConfig } from "../config.js";
import {
  type AgentResponse,
  cancelResearch,
  DEEP_RESEARCH_PRESET,
  submitResearch,
} from "../internal/agent-api.js";
import { DEEP_RESEARCH_POLICY } from "../internal/policy.js";
import { ResearchOutputSchema, researchOutput } from "../internal/research-output.js";
import { pollResearch } from "../internal/research-poll.js";

/** The resume point the tool stores once Perplexity accepted the run: its response id. */
const resumeId = (point: Readonly<Record<string, unknown>> | undefined): string | undefined =>
  typeof point?.response_id === "string" && point.response_id !== "" ? point.response_id : undefined;

/** A response that ended other than `completed`, as the call's failure. */
const ended = (response: AgentResponse) => {
  const why = response.error?.message ? `: ${response.error.message}` : "";
  return fail.upstream(`Perplexity's research ${response.id} ended ${response.status}${why}.`, {
    retryable: false,
    suggestion: "Ask again later (a new run is billed again), or use perplexity_search_web for sources.",
  });
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
    const resumed = resumeId(ctx.task?.resumeFrom);
    let response: AgentResponse | undefined = resumed
      ? { id: resumed, status: "queued", output: [] }
      : undefined;
    let finished = false;
    try {
      if (!response) {
        response = await submitResearch(ctx, query);
        // Stored before the first poll: a replica that takes the task over polls this run, never submits again.
        await ctx.task
          ?.resume({ response_id: response.id })
          .catch((error: unknown) =>
            ctx.log("warning", "could not store the research's resume point", { error: String(error) }),
          );
      }
      const final = await pollResearch(ctx, response);
      finished = true;
      if (final.status !== "completed") throw ended(final);
      const data = researchOutput(final, DEEP_RESEARCH_PRESET);
      return outcome(data, {
        message: `Perplexity's research (preset ${DEEP_RESEARCH_PRESET}) wrote a report with ${data.sources.length} source${data.sources.length === 1 ? "" : "s"}.`,
        instruction:
          "Relay the report's findings in your own words, keeping its [n] markers pointing at sources[n] (or replace them with the URLs).",
        source: `Perplexity Agent API (preset ${DEEP_RESEARCH_PRESET})`,
      });
    } catch (error) {
      // Given up (cancelled, a time limit, polls that kept failing): stop the paid run too, unless
      // another replica took the task over and polls it.
      if (response && !finished && !ctx.task?.handedOver()) await cancelResearch(ctx, response.id);
      throw error;
    }
  },
});
