import { fail } from "@quiver/core";
import { TRY_LATER } from "./context7-errors.js";
import {
  type DocsClient,
  type DocsContext,
  type LibraryMatch,
  type McpCallResult,
  type McpToolCaller,
  unavailableOnError,
} from "./docs-client.js";
import { LIBRARY_ID } from "./match-library.js";
import { mcpErrorText } from "./mcp-error-text.js";
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

/** The server's answer for a search that matched nothing (its own text, or the API's 404 message). */
const NO_LIBRARIES = /^No (documentation )?libraries found/i;

/**
 * The MCP transport: Context7's MCP server (`resolve-library-id`, `query-docs`) through an
 * MCP client. Errors from the client are Context7 being unavailable. The official server returns
 * Context7's errors as ordinary text without `isError`; those texts are recognised
 * ({@link mcpErrorText}) and become the same failures as over HTTP, never documentation or "no match".
 *
 * @example
 * const client = mcpDocsClient(bridge);
 * const docs = await client.getContext({ libraryId: "/vercel/next.js", query: "middleware" }, { signal });
 */
export const mcpDocsClient = (caller: McpToolCaller): DocsClient => {
  /** Calls `tool` for `subject`: its text, and the failure an error text or an `isError` result stands for. */
  const answer = async (tool: string, subject: string, args: Record<string, string>, signal: AbortSignal) => {
    const result = await unavailableOnError(
      "The Context7 MCP server could not be reached through the MCP client",
      signal,
      () => caller.callTool({ name: tool, arguments: args }, { signal }),
    );
    const body = text(result);
    const failed =
      mcpErrorText(subject, body) ??
      (result.isError ? fail.upstream(`Context7 MCP ${tool} failed: ${body.slice(0, 300)}`) : undefined);
    return { body, failed };
  };
  const getContext = async (
    libraryId: string,
    query: string,
    signal: AbortSignal,
    redirectedFrom?: string,
  ): Promise<DocsContext> => {
    const { body, failed } = await answer("query-docs", libraryId, { libraryId, query }, signal);
    // A moved library (the API's 301 message, passed on as text) is followed once, as over HTTP.
    const target = MOVED.exec(body)?.[1];
    if (redirectedFrom === undefined && target && LIBRARY_ID.test(target) && target !== libraryId)
      return getContext(target, query, signal, libraryId);
    if (failed) throw failed;
    if (body === "")
      throw fail.upstream(`The Context7 MCP server answered with no text for ${libraryId}.`, {
        suggestion: TRY_LATER,
      });
    const moved = redirectedFrom === undefined ? {} : { redirectedFrom };
    return { libraryId, text: body, sources: sourcesInText(body), ...moved };
  };
  return {
    searchLibraries: async ({ libraryName, query }, { signal }) => {
      const { body, failed } = await answer(
        "resolve-library-id",
        libraryName,
        { libraryName, query },
        signal,
      );
      // No match: the server's own text, or the search's own 404 (no_libraries_found, "does not exist").
      if (NO_LIBRARIES.test(body) || failed?.status === 404) return [];
      if (failed) throw failed;
      const libraries = parseResolveText(body);
      if (libraries.length > 0) return libraries;
      throw fail.upstream(
        `Context7 MCP resolve-library-id answered with no library list: ${body.slice(0, 200)}`,
        {
          suggestion: TRY_LATER,
        },
      );
    },
    getContext: ({ libraryId, query }, { signal }) => getContext(libraryId, query, signal),
  };
};

/** The API's `library_redirected` message, as the official server passes it on. */
const MOVED = /^Library \S+ has been redirected to this library: (\S+?)\.?$/;
