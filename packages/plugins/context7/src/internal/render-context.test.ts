import { describe, expect, it } from "vitest";
import { renderContext } from "./render-context.js";
import { ContextResponseSchema } from "./upstream-schemas.js";

describe("rendering Context7's JSON context as Markdown", () => {
  it("renders code and info snippets with their sources, one source per page", () => {
    const context = ContextResponseSchema.parse({
      codeSnippets: [
        {
          codeTitle: "A",
          codeDescription: "first",
          codeLanguage: "ts",
          codeTokens: 1,
          codeId: "https://example.com/docs/page.md#_snippet_0",
          pageTitle: "Page",
          codeList: [{ language: "ts", code: "a()\n" }],
        },
        {
          codeTitle: "B",
          codeDescription: "",
          codeLanguage: "ts",
          codeTokens: 1,
          codeId: "https://example.com/docs/page.md#_snippet_1",
          pageTitle: "Page",
          codeList: [{ language: "ts", code: "b()" }],
        },
      ],
      infoSnippets: [{ content: "No page id", contentTokens: 3 }],
    });
    const { text, sources, snippets } = renderContext(context);
    expect(snippets).toBe(3);
    expect(sources).toEqual([{ url: "https://example.com/docs/page.md", title: "Page" }]);
    expect(text).toBe(
      "### A\n\nSource: https://example.com/docs/page.md#_snippet_0\n\nfirst\n\n```ts\na()\n```" +
        "\n\n--------------------------------\n\n" +
        "### B\n\nSource: https://example.com/docs/page.md#_snippet_1\n\n```ts\nb()\n```" +
        "\n\n--------------------------------\n\n" +
        "### Documentation\n\nNo page id",
    );
  });
});
