import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dataOf, metaOf, session } from "./support/catalog.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

// `fda://label/{set_id}` through a real catalog against the openFDA emulator: the full label record as
// openFDA sends it, fetched with `search=set_id:"…"`; the search tool's matches name it as label_uri.
const { up, fdaCatalog } = useOpenFdaEmulator();

/** The recorded full label (SILICEA, 2018): the record openFDA answered, byte for byte (test/fixtures/SOURCE.md). */
const RECORDED = JSON.parse(
  readFileSync(new URL("fixtures/label/label_limit1_2018-04-04.json", import.meta.url), "utf8"),
).results[0];
const SET_ID = "0000025c-6dbf-4af7-a741-5cbacaed519a";
const URI = `fda://label/${SET_ID}`;
const contents = (answer: unknown) => (answer as { value: Array<{ text: string; mimeType: string }> }).value;

describe("fda://label/{set_id}", () => {
  it("is listed as a JSON resource template", () => {
    expect(fdaCatalog().resourceTemplates()).toEqual([
      expect.objectContaining({
        uriTemplate: "fda://label/{set_id}",
        mimeType: "application/json",
        plugin: "fda",
      }),
    ]);
  });

  it("reads the whole label openFDA holds for the set id, through the plugin's client", async () => {
    const read = await fdaCatalog().readResource(URI, session);
    expect(read.ok).toBe(true);
    const [label] = contents(read);
    expect(label!.mimeType).toBe("application/json");
    expect(JSON.parse(label!.text)).toEqual(RECORDED);
    expect(JSON.parse(label!.text).warnings[0]).toMatch(/^WARNINGS This product is to be used/);
    const sent = up.requestsTo("GET", "/drug/label.json").at(-1)!;
    expect(sent.query.get("search")).toBe(`set_id:"${SET_ID}"`);
    expect(sent.query.get("limit")).toBe("1");
  });

  it("is named for each match of the search tool in metadata.label_uris", async () => {
    const catalog = fdaCatalog();
    const found = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { indication: "type 2 diabetes" } },
      session,
    );
    expect(dataOf(found).matches[0]).not.toHaveProperty("label_uri");
    const [uri] = metaOf(found).label_uris;
    expect(uri).toMatch(/^fda:\/\/label\/[0-9a-f-]{36}$/);
    const read = await catalog.readResource(uri, session);
    expect(JSON.parse(contents(read)[0]!.text).indications_and_usage[0]).toContain("RYBELSUS");
  });

  it("answers not_found for a set id openFDA does not have, invalid_input for one that is not a UUID", async () => {
    const catalog = fdaCatalog();
    const missing = "fda://label/00000000-0000-4000-8000-000000000000";
    expect(await catalog.readResource(missing, session)).toMatchObject({ ok: false, kind: "not_found" });
    const before = up.requests.length;
    const bad = await catalog.readResource(`fda://label/${encodeURIComponent('x" OR set_id:*')}`, session);
    expect(bad).toMatchObject({ ok: false, kind: "invalid_input" });
    expect(up.requests.length).toBe(before);
  });

  it("reports openFDA failing as upstream, after the runtime's retries", async () => {
    up.fault("GET", "/drug/label.json", { kind: "status", status: 500 });
    const read = await fdaCatalog().readResource(URI, session);
    expect(read).toMatchObject({ ok: false, kind: "upstream" });
  });
});
