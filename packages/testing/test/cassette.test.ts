import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Cassette, loadCassette, parseCassette, routesFromCassette } from "../src/emulator/cassette.js";
import { loadJson } from "../src/emulator/load-json.js";
import { type Emulator, startEmulator } from "../src/emulator/start-emulator.js";

/** Recorded real-world responses kept in the repository (see fixtures/alphafold/SOURCE.md, fixtures/openfda/SOURCE.md). */
const DATA = fileURLToPath(new URL("fixtures/", import.meta.url));
const TP53 = join(DATA, "alphafold/api/02-tp53-r175h/cassette.json");
const EGFR = join(DATA, "alphafold/api/03-egfr-l858r/cassette.json");

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
});
afterEach(() => up.reset());
afterAll(() => up.close());

type Interaction = Cassette["interactions"][number];
const find = (c: Cassette, pred: (i: Interaction) => boolean): Interaction => {
  const found = c.interactions.find(pred);
  if (!found) throw new Error("interaction not in cassette");
  return found;
};

describe("routesFromCassette with the recorded AlphaFold cassettes", () => {
  it("loads and validates both cassette files", () => {
    for (const path of [TP53, EGFR]) {
      const cassette = loadCassette(path);
      expect(cassette.interactions.length).toBeGreaterThan(5);
      expect(cassette.example).toEqual(expect.any(String));
    }
  });

  it("serves the recorded AlphaFold prediction as JSON", async () => {
    const cassette = loadCassette(TP53);
    const routes = routesFromCassette(up, cassette);
    expect(routes.length).toBe(cassette.interactions.length);
    const res = await request(`${up.url}/api/prediction/P04637`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    const body = (await res.body.json()) as Array<{ uniprotAccession: string; gene: string }>;
    expect(body).toEqual(find(cassette, (i) => i.url.endsWith("/api/prediction/P04637")).response_json);
    expect(body[0]).toMatchObject({ uniprotAccession: "P04637", gene: "TP53" });
    expect(routes.find((r) => r.path === "/api/prediction/P04637")?.hits).toBe(1);
  });

  it("serves recorded text bodies byte for byte, with a content type from the extension", async () => {
    const cassette = loadCassette(TP53);
    routesFromCassette(up, cassette);
    const csv = find(cassette, (i) => i.url.endsWith(".csv"));
    const res = await fetch(`${up.url}/files/AF-P04637-F1-aa-substitutions.csv`);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await res.text();
    expect(text).toBe(csv.response_text);
    expect(text.startsWith("protein_variant,am_pathogenicity,am_class\r\n")).toBe(true);
  });

  it("replays recorded error statuses", async () => {
    routesFromCassette(up, loadCassette(TP53));
    const res = await fetch(`${up.url}/api/v1/gda/gene?gene_symbol=TP53&source=ALL&limit=5&format=json`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ payload: { message: "Missing or invalid API Key" } });
  });

  it("matches the recorded query in any order and encoding, and only that query", async () => {
    routesFromCassette(up, loadCassette(TP53));
    const reordered = await fetch(
      `${up.url}/entrez/eutils/esearch.fcgi?retmax=10&retmode=json&term=TP53[gene] AND p.Arg175His&db=clinvar`,
    );
    expect(reordered.status).toBe(200);
    expect(await reordered.json()).toHaveProperty("esearchresult");
    const other = await fetch(
      `${up.url}/entrez/eutils/esearch.fcgi?db=clinvar&term=BRCA1&retmode=json&retmax=10`,
    );
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: "no route", hint: expect.any(String) });
  });

  it("can ignore the query", async () => {
    routesFromCassette(up, loadCassette(TP53), { matchQuery: false });
    expect((await fetch(`${up.url}/entrez/eutils/esearch.fcgi?db=clinvar&term=anything`)).status).toBe(200);
  });

  it("serves paths with reserved characters (Ensembl VEP HGVS notation)", async () => {
    routesFromCassette(up, loadCassette(TP53));
    const query = "canonical=1&numbers=1&protein=1&uniprot=1&xref_refseq=1&Genoverse=0";
    const res = await fetch(`${up.url}/vep/human/hgvs/TP53:p.Arg175His?${query}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  });

  it("tells recorded POST bodies apart with matchBody (both cassettes in one emulator)", async () => {
    const tp53 = loadCassette(TP53);
    const egfr = loadCassette(EGFR);
    routesFromCassette(up, tp53, { matchBody: true });
    routesFromCassette(up, egfr, { matchBody: true });
    for (const cassette of [tp53, egfr]) {
      const gnomad = find(cassette, (i) => i.source === "gnomad");
      const res = await fetch(`${up.url}/api`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(gnomad.request_json),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(gnomad.response_json);
    }
    const unknown = await fetch(`${up.url}/api`, { method: "POST", body: JSON.stringify({ query: "{}" }) });
    expect(unknown.status).toBe(404);
  });

  it("mounts each host under a prefix and filters interactions", async () => {
    routesFromCassette(up, loadCassette(TP53), {
      filter: (i) => new URL(i.url).hostname !== "api.disgenet.com",
      pathPrefix: (url) => `/${url.hostname}`,
    });
    expect((await fetch(`${up.url}/alphafold.ebi.ac.uk/api/prediction/P04637`)).status).toBe(200);
    expect((await fetch(`${up.url}/api/prediction/P04637`)).status).toBe(404);
    expect((await fetch(`${up.url}/api.disgenet.com/api/v1/gda/gene`)).status).toBe(404);
  });

  it("combines with faults: a 503 first, then the recorded answer", async () => {
    routesFromCassette(up, loadCassette(EGFR));
    up.fault("GET", "/api/prediction/P00533", { kind: "status", status: 503, retryAfter: 1 }, { times: 1 });
    expect((await fetch(`${up.url}/api/prediction/P00533`)).status).toBe(503);
    const res = await fetch(`${up.url}/api/prediction/P00533`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Array<{ gene: string }>)[0]?.gene).toBe("EGFR");
  });
});

describe("routesFromCassette with synthetic cassettes", () => {
  it("answers repeated identical requests in recorded order, repeating the last", async () => {
    routesFromCassette(up, {
      interactions: [
        { method: "GET", url: "https://x.test/job/1", status: 202, response_json: { state: "running" } },
        { method: "GET", url: "https://x.test/job/1", status: 200, response_json: { state: "done" } },
      ],
    });
    const states: string[] = [];
    for (let i = 0; i < 3; i++) {
      states.push(((await (await fetch(`${up.url}/job/1`)).json()) as { state: string }).state);
    }
    expect(states).toEqual(["running", "done", "done"]);
  });

  it("replays recorded headers, minus transfer headers", async () => {
    routesFromCassette(up, {
      interactions: [
        {
          method: "GET",
          url: "https://x.test/h",
          status: 200,
          response_text: "<r/>",
          response_headers: {
            "Content-Type": "application/xml",
            "Content-Length": "999",
            "X-Total-Results": "7",
          },
        },
      ],
    });
    const res = await fetch(`${up.url}/h`);
    expect(res.headers.get("content-type")).toBe("application/xml");
    expect(res.headers.get("x-total-results")).toBe("7");
    expect(await res.text()).toBe("<r/>");
  });

  it("rejects malformed cassettes with a message naming the problem", () => {
    expect(() => parseCassette({})).toThrow(/interactions/);
    expect(() =>
      parseCassette({ interactions: [{ method: "GET", url: "/relative", status: 200 }] }, "c.json"),
    ).toThrow("c.json: interactions[0].url must be an absolute URL");
    expect(() =>
      parseCassette({ interactions: [{ method: "GET", url: "https://x.test/", status: "200" }] }),
    ).toThrow(/status must be a number/);
  });
});

describe("loadJson", () => {
  it("reads a recorded fixture from an absolute path", () => {
    const body = loadJson<{ error: { code: string } }>(join(DATA, "openfda/errors/error_404_not_found.json"));
    expect(body.error.code).toBe("NOT_FOUND");
  });

  it("accepts a file URL and names the file in errors", () => {
    const dir = mkdtempSync(join(tmpdir(), "quiver-testing-"));
    const good = join(dir, "good.json");
    const bad = join(dir, "bad.json");
    writeFileSync(good, '{"a":[1]}');
    writeFileSync(bad, "{nope");
    expect(loadJson(new URL(`file://${good}`))).toEqual({ a: [1] });
    expect(() => loadJson(bad)).toThrow(`loadJson: ${bad} is not valid JSON`);
    expect(() => loadJson(join(dir, "missing.json"))).toThrow(/loadJson: cannot read .*missing\.json/);
    expect(() => loadCassette(good)).toThrow(/good\.json: expected an object with an "interactions" array/);
  });
});
