import { createCatalog } from "@quiver/core";
import { describeRecordReplay, startEmulator } from "@quiver/testing";
import { createContext7Plugin } from "../src/index.js";
import { routeContext7 } from "./context7-upstream.js";

/** The key the recording runs with (a canary): it must never appear in a cassette. */
const CANARY = "ctx7sk-canary-4c1f9e2d7a";
const session = { session: { id: "s1", principal: "alice" } };

describeRecordReplay({
  title: "Context7 tool calls (HTTP API)",
  start: async () => {
    const up = await startEmulator();
    routeContext7(up);
    return up;
  },
  catalog: (http, up) => {
    const catalog = createCatalog({ http, env: {} });
    catalog.register(createContext7Plugin(), { baseUrl: `${up.url}/api`, apiKey: CANARY });
    return catalog;
  },
  calls: [
    { tool: "context7_resolve_library_id", input: { library_name: "next.js", query: "middleware" } },
    { tool: "context7_search_documentation", input: { query: "routing", library: "react" } },
    { tool: "context7_get_library_docs", input: { library_id: "/vercel/next.js", query: "middleware" } },
    { tool: "context7_resolve_library_id", input: { library_name: "no-such-library-xyz", query: "setup" } },
  ].map((c) => ({ ...c, options: session })),
  // The last one: the library search answers with nothing, which the tool reports as an error.
  statuses: ["success", "success", "success", "error"],
  canary: CANARY,
  cassettes: { atLeast: 3 },
});
