import { fail, ToolFailure } from "@quiver/core";
import type { DocsClient, LibraryMatch, McpCallResult, McpToolCaller } from "./docs-client.js";
import { sourcesInText } from "./render-context.js";

const text = (result: McpCallResult): string =>
  result.content
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n")
    .trim();

const field = (block: string, name: string): string | undefined => {
  const line = block.split(/\r?\n/).find((l) => l.trimStart().startsWith(`- ${name}:`));
  const value = line?.slice(line.indexOf(":") + 1).trim();
  return value === "" ? undefined : value;
};

const REPUTATION: Readonly<Record<string, number>> = { high: 8, medium: 5, low: 2 };

/**
 * Parses the text of the Context7 MCP server's `resolve-library-id` ("Available Libraries:" then
 * `- Title:` / `- Context7-compatible library ID:` blocks separated by `----------`).
 *
 * @example
 * parseResolveText("Available Libraries:\n\n- Title: React\n- Context7-compatible library ID: /facebook/react")
 */
export const parseResolveText = (body: string): LibraryMatch[] => {
  const out: LibraryMatch[] = [];
  for (const block of body.split(/\n-{5,}\n/)) {
    const id = field(block, "Context7-compatible library ID");
    if (!id) continue;
    const snippets = Number(field(block, "Code Snippets"));
    const benchmark = Number(field(block, "Benchmark Score"));
    const reputation = REPUTATION[field(block, "Source Reputation")?.toLowerCase() ?? ""];
    const versions = field(block, "Versions")
      ?.split(",")
      .map((v) => v.trim())
      .filter((v) => v !== "");
    const description = field(block, "Description");
    out.push({
      id,
      title: field(block, "Title") ?? id,
      ...(description ? { description } : {}),
      ...(Number.isFinite(snippets) && snippets >= 0 ? { snippets } : {}),
      ...(Number.isFinite(benchmark) && benchmark > 0 ? { benchmarkScore: benchmark } : {}),
      ...(reputation === undefined ? {} : { trustScore: reputation }),
      ...(versions && versions.length > 0 ? { versions } : {}),
    });
  }
  return out;
};

const NOT_FOUND = /not found|does not exist|no libraries found/i;

/**
 * The MCP transport: Context7's MCP server (`resolve-library-id`, `query-docs`) through an
 * MCP client. Errors from the client are Context7 being unavailable; an `isError` result
 * that says "not found" is a library that does not exist.
 *
 * @example
 * const client = mcpDocsClient(bridge);
 * const docs = await client.getContext({ libraryId: "/vercel/next.js", query: "middleware" }, { signal });
 */
export const mcpDocsClient = (caller: McpToolCaller): DocsClient => {
  const call = async (
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpCallResult> => {
    try {
      return await caller.callTool({ name, arguments: args }, { signal });
    } catch (error) {
      if (ToolFailure.isInstance(error) || signal.aborted) throw error;
      throw fail.unavailable(
        `The Context7 MCP server could not be reached through the MCP client: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  return {
    searchLibraries: async ({ libraryName, query }, { signal }) => {
      const result = await call("resolve-library-id", { libraryName, query }, signal);
      const body = text(result);
      if (result.isError && !NOT_FOUND.test(body))
        throw fail.upstream(`Context7 MCP resolve-library-id failed: ${body}`);
      return parseResolveText(body);
    },
    getContext: async ({ libraryId, query }, { signal }) => {
      const result = await call("query-docs", { libraryId, query }, signal);
      const body = text(result);
      if (NOT_FOUND.test(body.slice(0, 200)) && (result.isError || body.length < 400)) {
        if (/documentation not found/i.test(body)) {
          throw fail.outOfDomain(`Context7 has no documentation in ${libraryId} that matches this query.`, {
            status: 404,
          });
        }
        throw fail.invalidInput(`Context7 does not know the library ${libraryId}: ${body}`, { status: 404 });
      }
      if (result.isError) throw fail.upstream(`Context7 MCP query-docs failed: ${body}`);
      if (body === "")
        throw fail.outOfDomain(`Context7 has no documentation in ${libraryId} that matches this query.`, {
          status: 404,
        });
      return { libraryId, text: body, sources: sourcesInText(body) };
    },
  };
};
