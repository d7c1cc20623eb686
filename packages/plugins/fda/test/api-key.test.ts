import { FAULT_KINDS, type Fault } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { dataOf, session } from "./support/catalog.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

const KEY = "test-openfda-key-8d1f0c2b";
const openfda = useOpenFdaEmulator();

const search = { search_criteria: { brand_name: "Ozempic" } };

describe("OPENFDA_API_KEY is optional, sent as the api_key query parameter, and never shown", () => {
  it("works without a key and sends no api_key", async () => {
    const r = await openfda.fdaCatalog().call("fda_search_drugs", search, session);
    expect(r.status).toBe("success");
    expect(openfda.up.requestsTo("GET", "/drug/drugsfda.json").at(-1)!.query.has("api_key")).toBe(false);
  });

  it("sends the key from OPENFDA_API_KEY as the first query parameter", async () => {
    const catalog = openfda.fdaCatalog({}, { env: { OPENFDA_API_KEY: KEY } });
    const r = await catalog.call("fda_search_drugs", search, session);
    expect(r.status).toBe("success");
    const sent = openfda.up.requestsTo("GET", "/drug/drugsfda.json").at(-1)!;
    expect([...sent.query.keys()][0]).toBe("api_key");
    expect(sent.query.get("api_key")).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.stringify(r)).not.toContain(KEY);
  });

  it("takes the key from createFdaPlugin options too, and keeps it out of the catalog export", async () => {
    const catalog = openfda.fdaCatalog({ apiKey: KEY });
    await catalog.call("fda_count_drugs", { count_by: "route" }, session);
    expect(openfda.up.requestsTo("GET", "/drug/drugsfda.json").at(-1)!.query.get("api_key")).toBe(KEY);
    expect(JSON.stringify(catalog.export())).not.toContain(KEY);
    expect(JSON.stringify(catalog.plugins())).not.toContain(KEY);
  });

  it("maps the recorded 403 API_KEY_INVALID to access_denied naming OPENFDA_API_KEY, without the key", async () => {
    openfda.up.fault("GET", "/drug/drugsfda.json", {
      kind: "status",
      status: 403,
      body: openfda.rec.errors.keyInvalid,
    });
    const r = await openfda.fdaCatalog({ apiKey: KEY }).call("fda_search_drugs", search, session);
    expect(r.status).toBe("access_denied");
    expect(r.error?.kind).toBe("access_denied");
    expect(r.message).toContain("An invalid api_key was supplied");
    expect(r.suggestion).toContain("OPENFDA_API_KEY");
    expect(JSON.stringify(r)).not.toContain(KEY);
  });

  it("redacts the key when openFDA echoes the request URL in an error", async () => {
    const echo = openfda.up.route("GET", "/drug/label.json", (req) => ({
      status: 500,
      json: {
        error: { code: "SERVER_ERROR", message: `failed for ?api_key=${req.query.get("api_key")}&search=x` },
      },
    }));
    const r = await openfda
      .fdaCatalog({ apiKey: KEY })
      .call("fda_search_drugs", { search_criteria: { indication: "asthma" } }, session);
    expect(r.error?.kind).toBe("upstream");
    expect(JSON.stringify(r)).not.toContain(KEY);
    echo.remove();
  });

  it.each(FAULT_KINDS)("never shows the key in the envelope under a %s fault", async (kind) => {
    const fault: Fault =
      kind === "status"
        ? { kind, status: 502, body: `upstream said api_key=${KEY}` }
        : kind === "oversized"
          ? { kind, bytes: 6 * 1024 * 1024 }
          : kind === "delay"
            ? { kind, ms: 20 }
            : kind === "slowBody"
              ? { kind, chunkBytes: 2048, intervalMs: 1 }
              : ({ kind } as Fault);
    openfda.up.fault("GET", "/drug/drugsfda.json", fault);
    const catalog = openfda.fdaCatalog(
      { apiKey: KEY },
      { policies: { "*": { timeout: "1s", retry: false } } },
    );
    const r = await catalog.call("fda_search_drugs", search, session);
    expect(JSON.stringify(r)).not.toContain(KEY);
    expect(JSON.stringify(dataOf(r) ?? {})).not.toContain(KEY);
  });
});
