import { fail } from "@quiver/core";
import { z } from "zod";
import type { WebSearchBackend } from "./backend.js";
import { postJson } from "./post-json.js";
import { LONG_RUNNING_MODELS, SONAR_MODELS } from "./sonar-models.js";
import { toResult } from "./web-results.js";

/** A text content chunk of `ChatMessageOutput.content` (the SDK's `ChatMessageContentTextChunk`). */
const ContentChunkSchema = z.object({ type: z.string(), text: z.string().nullish() }).passthrough();

/** `ChatMessageOutput.content`: a string, a list of content chunks, or null (SDK types). */
const ContentSchema = z.union([z.string(), z.array(ContentChunkSchema)]).nullish();

/** The answer's text: the string, or the text chunks of a chunk list joined (images and files have none). */
export const contentText = (content: z.output<typeof ContentSchema>): string =>
  typeof content === "string"
    ? content
    : (content ?? [])
        .filter((chunk) => chunk.type === "text")
        .map((chunk) => chunk.text ?? "")
        .join("");

/** `POST /chat/completions` response (`CompletionResponse`), the fields this tool reads. */
const CompletionSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({ role: z.string().nullish(), content: ContentSchema }).nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
  citations: z.array(z.string()).nullish(),
  search_results: z
    .array(
      z.object({
        title: z.string().nullish(),
        url: z.string().min(1),
        date: z.string().nullish(),
        last_updated: z.string().nullish(),
        snippet: z.string().nullish(),
      }),
    )
    .nullish(),
});

/** Reasoning models put their reasoning in `<think>…</think>` before the answer; the model needs only the answer. */
export const stripThinking = (content: string): string =>
  content.replace(/^\s*<think>[\s\S]*?<\/think>\s*/i, "").trim();

const SYSTEM = "Be precise and concise. Answer in a few sentences and cite sources with [n] markers.";

/**
 * Sonar chat completions (`POST /chat/completions`): a short answer with `[n]` markers into
 * `citations`, and `search_results` (title, url, date) when Perplexity sends them; bare citations are
 * given readable titles from their URLs.
 *
 * @example
 * const out = await chatApi.search({ query: "population of San Francisco", maxResults: 5, model: "sonar" }, { http, config, signal });
 */
export const chatApi: WebSearchBackend = {
  api: "chat",
  search: async (request, ctx) => {
    const model = request.model ?? ctx.config.model;
    if (LONG_RUNNING_MODELS.includes(model)) throw longRunning(model);
    const body = await postJson(
      ctx,
      "/chat/completions",
      {
        model,
        messages: [
          { role: "system", content: SYSTEM },
          { role: "user", content: request.query },
        ],
        num_search_results: request.maxResults,
        ...(request.recency ? { search_recency_filter: request.recency } : {}),
        ...(request.domains && request.domains.length > 0 ? { search_domain_filter: request.domains } : {}),
      },
      CompletionSchema,
    );
    const content = stripThinking(contentText(body.choices[0]?.message?.content));
    if (content === "") {
      throw fail.upstream(`Perplexity (${model}) returned no answer.`, {
        suggestion: "Try again, or rephrase the question.",
      });
    }
    const searchResults = body.search_results ?? [];
    const citations = body.citations ?? searchResults.map((r) => r.url);
    const results =
      searchResults.length > 0 ? searchResults.map(toResult) : citations.map((url) => toResult({ url }));
    return {
      answer: content,
      answer_included: true,
      results,
      citations,
      ...(body.model ? { model: body.model } : { model }),
      api: "chat",
    };
  },
};

/** The failure for a long-running model: refused before any request, so nothing is paid or retried. */
const longRunning = (model: string) =>
  fail.invalidInput(
    `Perplexity's ${model} researches for minutes and cannot answer one chat completion within this tool's time limit.`,
    {
      retryable: false,
      suggestion: `Use ${SONAR_MODELS.join(", ")} (or omit model), or the Search API and write the answer from its sources.`,
    },
  );
