// The bare MCP SDK server of the load bench: McpServer + registerTool with the three tools the
// workload calls, each making the same upstream requests as the Quiver plugin's tool (plain fetch,
// no validation of the answer, no policies), served over Streamable HTTP the way the SDK documents it:
// one WebStandardStreamableHTTPServerTransport per session on node:http, sessions forgotten when
// closed. Prints "listening <url>" on stdout.
// Run: node bench/load/support/bare-server.mjs <upstream url> [port]
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { serveBareMcp } from "../../lib/bare-mcp-http.mjs";
import { PERPLEXITY_KEY } from "./workload.mjs";

const upstream = process.argv[2];

const getJson = async (path, init) => {
  const res = await fetch(`${upstream}${path}`, init);
  if (!res.ok) throw new Error(`upstream answered ${res.status}`);
  return res.json();
};
const result = (value) => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
});

const newServer = () => {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool(
    "fda_search_drugs",
    {
      description: "Search FDA-approved drugs (openFDA drugsfda).",
      inputSchema: z.object({
        search_criteria: z.object({ active_ingredient: z.string().describe("Active ingredient") }),
        max_results: z.number().int().min(1).max(100).default(10).describe("Most matches"),
      }),
    },
    async ({ search_criteria, max_results }) => {
      const q = new URLSearchParams({
        search: `openfda.generic_name:"${search_criteria.active_ingredient}"`,
        limit: String(max_results),
      });
      const body = await getJson(`/drug/drugsfda.json?${q}`);
      return result({ total: body.meta?.results?.total ?? 0, results: body.results ?? [] });
    },
  );
  server.registerTool(
    "context7_search_documentation",
    {
      description: "Documentation for a library from Context7.",
      inputSchema: z.object({
        query: z.string().min(1).max(500).describe("What you need to know"),
        library: z.string().describe("Library name"),
      }),
    },
    async ({ query, library }) => {
      const found = await getJson(
        `/api/v2/libs/search?${new URLSearchParams({ libraryName: library, query })}`,
      );
      const id = found.results?.[0]?.id;
      const docs = await getJson(
        `/api/v2/context?${new URLSearchParams({ libraryId: id, query, type: "json" })}`,
      );
      return result({ library: id, docs });
    },
  );
  server.registerTool(
    "perplexity_search_web",
    {
      description: "Web search through Perplexity Sonar.",
      inputSchema: z.object({ query: z.string().min(1).max(2000).describe("The question") }),
    },
    async ({ query }) => {
      const body = await getJson("/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${PERPLEXITY_KEY}` },
        body: JSON.stringify({ model: "sonar", messages: [{ role: "user", content: query }] }),
      });
      return result({ answer: body.choices?.[0]?.message?.content ?? "", citations: body.citations ?? [] });
    },
  );
  return server;
};

serveBareMcp(newServer, process.argv[3] ?? 0);
