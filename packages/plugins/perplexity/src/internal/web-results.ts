import { z } from "zod";

/** One search result as the tool returns it. */
export const WebResultSchema = z.object({
  title: z.string().describe("Page title"),
  url: z.string().describe("Page URL"),
  date: z.string().optional().describe("Publication date, when known"),
  snippet: z.string().optional().describe("Excerpt of the page relevant to the query"),
});

/** The one output shape of `perplexity_search_web`, whichever API answered. */
export const WebSearchOutputSchema = z.object({
  answer: z.string().optional().describe("A concise answer with [n] citation markers (chat API only)"),
  answer_included: z
    .boolean()
    .describe(
      "True when `answer` holds Perplexity's written answer (chat API); false with the Search API (the default), which returns sources only: write the answer from them",
    ),
  results: z.array(WebResultSchema).describe("Sources found, most relevant first"),
  citations: z.array(z.string()).describe("Cited URLs; [n] in the answer is citations[n-1]"),
  model: z.string().optional().describe("The Sonar model that answered (chat API only)"),
  api: z.enum(["search", "chat"]).describe("Which Perplexity API answered"),
});

/**
 * Output of `perplexity_search_web`, the same for both APIs.
 *
 * @example
 * const urls = (result.data as WebSearchOutput).citations;
 */
export type WebSearchOutput = z.input<typeof WebSearchOutputSchema>;
/**
 * One source in {@link WebSearchOutput}.
 *
 * @example
 * const r: WebResult = { title: "San Francisco - Wikipedia", url: "https://en.wikipedia.org/wiki/San_Francisco" };
 */
export type WebResult = z.input<typeof WebResultSchema>;

/** Longest snippet kept per result, so ten results stay well inside the output budget. */
export const MAX_SNIPPET_CHARS = 1_500;

/** A snippet trimmed to {@link MAX_SNIPPET_CHARS} on a word boundary, with an ellipsis when cut. */
export const clipSnippet = (snippet: string): string => {
  const text = snippet.trim();
  if (text.length <= MAX_SNIPPET_CHARS) return text;
  const cut = text.slice(0, MAX_SNIPPET_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_SNIPPET_CHARS * 0.8 ? cut.slice(0, space) : cut).trimEnd()}…`;
};

/**
 * A readable title for a URL that came without one (Sonar's bare `citations`):
 * "en.wikipedia.org/wiki/San_Francisco" → "en.wikipedia.org: San Francisco".
 */
export const titleFromUrl = (url: string): string => {
  try {
    const u = new URL(url);
    const host = u.hostname.replace(/^www\./, "");
    const last = u.pathname.split("/").filter(Boolean).pop();
    if (!last) return host;
    const words = decodeURIComponent(last)
      .replace(/\.[a-z0-9]{2,5}$/i, "")
      .replace(/[-_+]+/g, " ")
      .trim();
    return words ? `${host}: ${words}` : host;
  } catch {
    return url;
  }
};

/** A result as both APIs send it (`ApiSearchResponse.results`, `CompletionResponse.search_results`). */
export const RawResultSchema = z.object({
  title: z.string().nullish(),
  url: z.string().min(1),
  date: z.string().nullish(),
  last_updated: z.string().nullish(),
  snippet: z.string().nullish(),
});

/** A result from upstream fields, dropping empty and null values. */
export const toResult = (raw: z.output<typeof RawResultSchema>): WebResult => {
  const date = raw.date ?? raw.last_updated;
  return {
    title: raw.title?.trim() || titleFromUrl(raw.url),
    url: raw.url,
    ...(date ? { date } : {}),
    ...(raw.snippet?.trim() ? { snippet: clipSnippet(raw.snippet) } : {}),
  };
};

/** An upstream result, parsed and turned into a {@link WebResult}. */
export const UpstreamResultSchema = RawResultSchema.transform(toResult);
