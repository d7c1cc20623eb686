import { fail } from "@quiver/core";
import { z } from "zod";
import { postJson, SONAR_MODELS, searchFilters, type WebSearchBackend } from "./perplexity-api.js";
import { toResult, UpstreamResultSchema } from "./web-results.js";

/**
 * `ChatMessageOutput.content` (SDK types): a string, a list of content chunks (the SDK's
 * `ChatMessageContentTextChunk` and others), or null.
 */
const ContentSchema = z
  .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().nullish() }))])
  .nullish();

/** The answer's text: the string, or the text chunks of a chunk list joined (images and files have none). */
const contentText = (content: z.output<typeof ContentSchema>): string =>
  typeof content === "string"
    ? content
    : (content ?? []).map((chunk) => (chunk.type === "text" ? (chunk.text ?? "") : "")).join("");

/** `POST /chat/completions` response (`CompletionResponse`), the fields this tool reads. */
const CompletionSchema = z.object({
  model: z.string().nullish(),
  choices: z.array(z.object({ message: z.object({ content: ContentSchema }).nullish() })).default([]),
  citations: z.array(z.string()).nullish(),
  search_results: z.array(UpstreamResultSchema).nullish(),
});

/** Reasoning models put their reasoning in `<think>…</think>` before the answer; the model needs only the answer. */
export const stripThinking = (content: string): string =>
  content.replace(/^\s*<think>[\s\S]*?<\/think>\s*/i, "").trim();

const SYSTEM = "Be precise and concise. Answer in a few sentences and cite sources with [n] markers.";

/**
 * Sonar chat completions (`POST /chat/completions`): a short answer with `[n]` markers into
 * `citations`, and `search_results` (title, url, date) when Perplexity sends them; bare citations are
 * given readable titles from their URLs. A long-running model (see `SONAR_MODELS`) is refused before
 * any request, so nothing is paid or retried.
 *
 * @example
 * const out = await chatApi({ query: "population of San Francisco", max_results: 5, model: "sonar" }, { http, config, signal: AbortSignal.timeout(5_000) });
 */
export const chatApi: WebSearchBackend = async (request, ctx) => {
  const model = request.model ?? ctx.config.model;
  if (model === "sonar-deep-research")
    throw fail.invalidInput(
      `Perplexity's ${model} researches for minutes and cannot answer one chat completion within this tool's time limit.`,
      {
        retryable: false,
        suggestion: `Use ${SONAR_MODELS.join(", ")} (or omit model), or perplexity_deep_research for a researched report.`,
      },
    );
  const messages = [
    { role: "system", content: SYSTEM },
    { role: "user", content: request.query },
  ];
  const json = { model, messages, num_search_results: request.max_results, ...searchFilters(request) };
  const body = await postJson(ctx, "/chat/completions", json, CompletionSchema);
  const answer = stripThinking(contentText(body.choices[0]?.message?.content));
  if (answer === "")
    throw fail.upstream(`Perplexity (${model}) returned no answer.`, {
      suggestion: "Try again, or rephrase the question.",
    });
  const searchResults = body.search_results ?? [];
  const citations = body.citations ?? searchResults.map((r) => r.url);
  const results = searchResults.length > 0 ? searchResults : citations.map((url) => toResult({ url }));
  return { answer, answer_included: true, results, citations, model: body.model || model, api: "chat" };
};
