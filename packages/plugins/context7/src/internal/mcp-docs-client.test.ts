import { ToolFailure } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { mcpDocsClient, parseResolveText } from "./mcp-docs-client.js";

const signal = new AbortController().signal;

describe("the MCP transport", () => {
  it("parses resolve-library-id text in the format of @upstash/context7-mcp", () => {
    const text =
      "Available Libraries:\n\n- Title: React\n- Context7-compatible library ID: /facebook/react\n- Description: A JavaScript library\n" +
      "- Code Snippets: 2500\n- Source Reputation: High\n- Benchmark Score: 95.5\n- Versions: v18.2.0, v17.0.2\n----------\n" +
      "- Title: Preact\n- Context7-compatible library ID: /preactjs/preact\n- Source Reputation: Unknown";
    expect(parseResolveText(text)).toEqual([
      {
        id: "/facebook/react",
        title: "React",
        description: "A JavaScript library",
        snippets: 2500,
        benchmarkScore: 95.5,
        trustScore: 8,
        versions: ["v18.2.0", "v17.0.2"],
      },
      { id: "/preactjs/preact", title: "Preact" },
    ]);
    expect(parseResolveText("No libraries found matching the provided name.")).toEqual([]);
  });

  it("maps 'not found' answers to a 404 failure, an empty answer and other errors to upstream", async () => {
    const answer = (text: string, isError = false) =>
      mcpDocsClient({ callTool: async () => ({ content: [{ type: "text", text }], isError }) });
    const missing = await answer("The library you are trying to access does not exist.", true)
      .getContext({ libraryId: "/x/y", query: "q" }, { signal })
      .catch((e: unknown) => e);
    expect(
      ToolFailure.isInstance(missing) && missing.kind === "invalid_input" && missing.status === 404,
    ).toBe(true);
    const noDocs = await answer("Documentation not found or not finalized for this library.")
      .getContext({ libraryId: "/x/y", query: "q" }, { signal })
      .catch((e: unknown) => e);
    // The official server's text for an empty 200 body: a fault, never "no documentation".
    expect(ToolFailure.isInstance(noDocs) && noDocs.kind).toBe("upstream");
    const broken = await answer("Internal error", true)
      .searchLibraries({ libraryName: "x", query: "q" }, { signal })
      .catch((e: unknown) => e);
    expect(ToolFailure.isInstance(broken) && broken.kind).toBe("upstream");
  });
});
