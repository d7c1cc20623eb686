import { describe, expect, it } from "vitest";
import { stripThinking } from "./chat-api.js";
import { clipSnippet, MAX_SNIPPET_CHARS, titleFromUrl, toResult } from "./web-results.js";

describe("normalising Perplexity results", () => {
  it("titles a bare citation URL by host and last path segment", () => {
    expect(titleFromUrl("https://en.wikipedia.org/wiki/San_Francisco")).toBe(
      "en.wikipedia.org: San Francisco",
    );
    expect(titleFromUrl("https://www.california-demographics.com/cities_by_population")).toBe(
      "california-demographics.com: cities by population",
    );
    expect(titleFromUrl("https://populationstat.com/")).toBe("populationstat.com");
    expect(titleFromUrl("https://example.com/docs/guide.html")).toBe("example.com: guide");
    expect(titleFromUrl("not a url")).toBe("not a url");
  });

  it("drops null fields, falls back to last_updated for the date, and to the URL for the title", () => {
    expect(
      toResult({
        title: null,
        url: "https://a.dev/x",
        date: null,
        last_updated: "2025-05-08",
        snippet: "  ",
      }),
    ).toEqual({
      title: "a.dev: x",
      url: "https://a.dev/x",
      date: "2025-05-08",
    });
  });

  it("clips long snippets on a word boundary with an ellipsis", () => {
    const long = "word ".repeat(1_000);
    const clipped = clipSnippet(long);
    expect(clipped.length).toBeLessThanOrEqual(MAX_SNIPPET_CHARS + 1);
    expect(clipped.endsWith("word…")).toBe(true);
    expect(clipSnippet(" short ")).toBe("short");
  });

  it("strips a reasoning model's <think> block and nothing else", () => {
    expect(stripThinking("<think>\nsteps\n</think>\n\nThe answer [1].")).toBe("The answer [1].");
    expect(stripThinking("Plain answer mentioning <think> tags.")).toBe(
      "Plain answer mentioning <think> tags.",
    );
  });
});
