import { describeStaleFallback, startEmulator } from "@quiver/testing";
import { createContext7Plugin } from "../src/index.js";
import { routeContext7 } from "./context7-upstream.js";

describeStaleFallback({
  upstream: "Context7",
  plugin: createContext7Plugin,
  start: async () => {
    const up = await startEmulator();
    routeContext7(up);
    return { up, options: { baseUrl: `${up.url}/api` } };
  },
  tool: "context7_search_documentation",
  input: { query: "how to use useEffect", library: "react" },
  // Past the documentation cache's six hours.
  afterMs: 7 * 3_600_000,
  errorKind: "unavailable", // Context7 maps a 503 to unavailable
});
