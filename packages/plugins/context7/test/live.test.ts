import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createContext7Plugin } from "../src/index.js";

const KEY = "CONTEXT7_API_KEY";
if (!process.env[KEY]) console.log(`skipped: set ${KEY} to run the live Context7 test`);

describe.runIf(process.env[KEY])("live: Context7 HTTP API", () => {
  it("resolves React and returns documentation with sources", async () => {
    const catalog = createCatalog({ env: process.env });
    catalog.register(createContext7Plugin());
    try {
      const r = await catalog.call(
        "context7_search_documentation",
        { query: "How do I clean up an effect with useEffect?", library: "react" },
        { session: { id: "live" } },
      );
      expect(r.status, r.message).toBe("success");
      const data = r.data as { library_id: string; documentation: string; sources: unknown[] };
      expect(data.library_id).toMatch(/react/i);
      expect(data.documentation.length).toBeGreaterThan(100);
      expect(JSON.stringify(r)).not.toContain(process.env[KEY]!);
    } finally {
      await catalog.close();
    }
  }, 90_000);
});
