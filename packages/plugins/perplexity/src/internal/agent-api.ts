import { ToolFailure } from "@quiver/core";
import { z } from "zod";
import type { PerplexityContext } from "./perplexity-api.js";
import { postJson } from "./perplexity-api.js";

// Perplexity's Agent API in background mode, as published:
// - docs.perplexity.ai/docs/agent-api/background-mode: submit `POST /v1/agent` with `background: true`,
//   store the response id, poll until the status is terminal (`completed`, `failed`, `cancelled`;
//   `queued` and `in_progress` are not); the run continues server-side if the client disconnects.
// - docs.perplexity.ai/api-reference/agent-cancel-post: `POST /v1/agent/{id}/cancel` answers 200
//   `{ response_id, status: "cancelling" }`; the run stops shortly after (poll `GET /v1/agent/{id}`);
//   a run that already ended answers 400, an unknown or another account's id 404.
// - Types: perplexityai/perplexity-node `src/generated/api.ts` (commit 1110dc1a…, 30 Jul 2026):
//   `ResponsesRequestInput` (`background`, `input`, `preset`, …), `ResponsesResponseOutput`
//   (`id`, `model`, `status`: `StatusOutput`, `output`, `error`, `usage`), `ResponseCancelResponse`.
// - `sonar-deep-research` maps to the preset `medium` (Perplexity's Sonar → Agent API migration guide).

/** The preset Perplexity names as the successor of `sonar-deep-research`. */
export const DEEP_RESEARCH_PRESET = "medium";

/** Statuses after which a background response no longer changes (`StatusOutput`, background mode). */
export const TERMINAL_STATUSES = new Set(["completed", "failed", "cancelled", "requires_action"]);
/** Statuses of a run still going: `cancelling` is what a cancel acknowledges until the run stops. */
export const RUNNING_STATUSES = new Set(["queued", "in_progress", "cancelling"]);

const SearchResultSchema = z.object({
  id: z.number().optional(),
  title: z.string().nullish(),
  url: z.string().min(1),
  date: z.string().nullish(),
  last_updated: z.string().nullish(),
  snippet: z.string().nullish(),
});

/** One `OutputItemOutput`: the `message` and `search_results` items are read, the others kept opaque. */
const OutputItemSchema = z.looseObject({
  type: z.string(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().nullish() })).optional(),
  results: z.array(SearchResultSchema).optional(),
});

/** `ResponsesResponseOutput`, the fields this plugin reads (the live envelope carries more). */
export const AgentResponseSchema = z.looseObject({
  id: z.string().min(1),
  model: z.string().nullish(),
  status: z.string(),
  output: z.array(OutputItemSchema).default([]),
  error: z
    .object({ message: z.string(), code: z.unknown().optional(), type: z.string().nullish() })
    .nullish(),
  usage: z.looseObject({ cost: z.looseObject({ total_cost: z.number().optional() }).nullish() }).nullish(),
});

/** A background response as Perplexity answers it. */
export type AgentResponse = z.output<typeof AgentResponseSchema>;

/**
 * Submits a background research run (`POST /v1/agent`, `background: true`, preset `medium`). Paid:
 * the caller never repeats it; a refusal (429 at the account's limit, 401) is the call's answer.
 */
export const submitResearch = (ctx: PerplexityContext, query: string): Promise<AgentResponse> =>
  postJson(
    ctx,
    "/v1/agent",
    { preset: DEEP_RESEARCH_PRESET, input: query, background: true },
    AgentResponseSchema,
  );

/** Reads a background response (`GET /v1/agent/{id}`). */
export const getResearch = (
  ctx: PerplexityContext,
  id: string,
  signal: AbortSignal,
): Promise<AgentResponse> =>
  ctx.http.json({
    method: "GET",
    baseUrl: ctx.config.baseUrl,
    url: `/v1/agent/${encodeURIComponent(id)}`,
    route: "/v1/agent/{id}",
    bearer: ctx.config.apiKey,
    apiKeyVar: "PERPLEXITY_API_KEY",
    schema: AgentResponseSchema,
    signal,
  });

/**
 * Asks Perplexity to stop a background run (`POST /v1/agent/{id}/cancel`), once, with its own short
 * time limit (the call's signal has already aborted). A run that already ended (400) or is gone (404)
 * needs no cancel; any other failure is answered as `false`, never thrown: cancelling is best effort.
 */
export const cancelResearch = async (ctx: PerplexityContext, id: string): Promise<boolean> => {
  try {
    const { status } = await ctx.http.request({
      method: "POST",
      baseUrl: ctx.config.baseUrl,
      url: `/v1/agent/${encodeURIComponent(id)}/cancel`,
      route: "/v1/agent/{id}/cancel",
      bearer: ctx.config.apiKey,
      apiKeyVar: "PERPLEXITY_API_KEY",
      acceptStatus: [400, 404],
      signal: AbortSignal.timeout(10_000),
    });
    return status === 200;
  } catch (error) {
    if (ToolFailure.isInstance(error)) return false;
    throw error;
  }
};
