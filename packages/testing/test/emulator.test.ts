import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
// Imported from the modules, not the index, so these tests do not depend on @quiver/core (conformance).
import { type Emulator, startEmulator } from "../src/emulator/start-emulator.js";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
});
afterEach(() => up.reset());
afterAll(() => up.close());

describe("startEmulator", () => {
  it("listens on 127.0.0.1 at a random port and exposes its url", () => {
    expect(up.url).toBe(`http://127.0.0.1:${up.port}`);
    expect(up.port).toBeGreaterThan(0);
  });

  it("serves canned JSON with status and headers", async () => {
    up.route("GET", "/api/v2/libs/search", {
      json: { results: [{ id: "/vercel/next.js" }] },
      status: 201,
      headers: { "X-Context7-Page": "1" },
    });
    const res = await request(`${up.url}/api/v2/libs/search?query=next`);
    expect(res.statusCode).toBe(201);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["x-context7-page"]).toBe("1");
    expect(await res.body.json()).toEqual({ results: [{ id: "/vercel/next.js" }] });
  });

  it("serves text and raw bodies with matching content types", async () => {
    up.route("GET", "/text", { text: "héllo" });
    up.route("GET", "/raw", { body: new Uint8Array([1, 2, 3]) });
    up.route("GET", "/typed", { body: "<a/>", headers: { "Content-Type": "application/xml" } });
    const text = await fetch(`${up.url}/text`);
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("héllo");
    const raw = await fetch(`${up.url}/raw`);
    expect(raw.headers.get("content-type")).toBe("application/octet-stream");
    expect([...new Uint8Array(await raw.arrayBuffer())]).toEqual([1, 2, 3]);
    const typed = await fetch(`${up.url}/typed`);
    expect(typed.headers.get("content-type")).toBe("application/xml");
  });

  it("passes method, path, query, headers, body and parsed json to a handler", async () => {
    up.route("POST", "/chat/completions", (req) => ({
      json: {
        method: req.method,
        path: req.path,
        q: req.query.get("api-version"),
        auth: req.headers.authorization,
        body: req.body,
        model: (req.json as { model: string }).model,
      },
    }));
    const payload = JSON.stringify({ model: "gpt-4o-mini", messages: [] });
    const res = await fetch(`${up.url}/chat/completions?api-version=2024`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: payload,
    });
    expect(await res.json()).toEqual({
      method: "POST",
      path: "/chat/completions",
      q: "2024",
      auth: "Bearer sk-test",
      body: payload,
      model: "gpt-4o-mini",
    });
  });

  it("supports async handlers", async () => {
    up.route("GET", "/async", async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { json: { ok: true } };
    });
    expect(await (await fetch(`${up.url}/async`)).json()).toEqual({ ok: true });
  });

  it("matches string paths exactly, ignoring the query string, and methods case-insensitively", async () => {
    up.route("get", "/exact", { json: 1 });
    expect((await fetch(`${up.url}/exact?x=1`)).status).toBe(200);
    expect((await fetch(`${up.url}/exact/more`)).status).toBe(404);
    expect((await fetch(`${up.url}/exact`, { method: "POST" })).status).toBe(404);
  });

  it("matches string paths with percent-encoding normalised", async () => {
    up.route("GET", "/vep/human/hgvs/TP53:p.Arg175His", { json: "vep" });
    expect(await (await fetch(`${up.url}/vep/human/hgvs/TP53%3Ap.Arg175His`)).json()).toBe("vep");
    expect(await (await fetch(`${up.url}/vep/human/hgvs/TP53:p.Arg175His`)).json()).toBe("vep");
  });

  it("matches RegExp paths and exposes the match to the handler", async () => {
    up.route("GET", /^\/api\/prediction\/(?<id>\w+)$/, (req) => ({
      json: [{ uniprotAccession: req.match?.[1], named: req.match?.groups?.id }],
    }));
    const res = await fetch(`${up.url}/api/prediction/P04637`);
    expect(await res.json()).toEqual([{ uniprotAccession: "P04637", named: "P04637" }]);
    expect((await fetch(`${up.url}/api/prediction/P04637/extra`)).status).toBe(404);
  });

  it("lets RegExps with the global flag match repeatedly", async () => {
    up.route("GET", /\/g\/\d+/g, { json: "g" });
    for (let i = 0; i < 3; i++) expect((await fetch(`${up.url}/g/${i}`)).status).toBe(200);
  });

  it('accepts "*" as any method', async () => {
    up.route("*", "/any", { json: "any" });
    expect((await fetch(`${up.url}/any`, { method: "DELETE" })).status).toBe(200);
    expect((await fetch(`${up.url}/any`, { method: "PUT", body: "x" })).status).toBe(200);
  });

  it("answers with the most recently added matching route", async () => {
    up.route("GET", "/x", { json: "default" });
    const override = up.route("GET", "/x", { json: "override" });
    expect(await (await fetch(`${up.url}/x`)).json()).toBe("override");
    override.remove();
    expect(await (await fetch(`${up.url}/x`)).json()).toBe("default");
  });

  it("filters routes by query parameters and a when predicate", async () => {
    up.route("GET", "/drug/drugsfda.json", { json: "page1" });
    up.route("GET", "/drug/drugsfda.json", { json: "page2" }, { query: { skip: "2" } });
    up.route("POST", "/graphql", { json: "tp53" }, { when: (req) => req.body.includes("TP53") });
    expect(await (await fetch(`${up.url}/drug/drugsfda.json?limit=2&skip=2`)).json()).toBe("page2");
    expect(await (await fetch(`${up.url}/drug/drugsfda.json?limit=2`)).json()).toBe("page1");
    expect(await (await fetch(`${up.url}/graphql`, { method: "POST", body: '{"gene":"TP53"}' })).json()).toBe(
      "tp53",
    );
    const miss = await fetch(`${up.url}/graphql`, { method: "POST", body: '{"gene":"EGFR"}' });
    expect(miss.status).toBe(404);
    expect(await miss.json()).toMatchObject({ error: "no route", hint: expect.any(String) });
  });

  it("counts route hits", async () => {
    const route = up.route("GET", "/hits", { json: 1 });
    await fetch(`${up.url}/hits`).then((r) => r.arrayBuffer());
    await fetch(`${up.url}/hits`).then((r) => r.arrayBuffer());
    expect(route.hits).toBe(2);
  });

  it('answers unmatched requests with 404 {error:"no route"}', async () => {
    const res = await request(`${up.url}/nothing/here?x=1`, { method: "PATCH", body: "{}" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(await res.body.json()).toEqual({ error: "no route", method: "PATCH", path: "/nothing/here" });
  });

  it("turns a throwing handler into a 500 that names the error", async () => {
    up.route("GET", "/boom", () => {
      throw new Error("fixture missing");
    });
    const res = await fetch(`${up.url}/boom`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "handler failed", message: "fixture missing" });
  });
});

describe("recorded requests", () => {
  it("records method, path, query, headers, body, json and time", async () => {
    up.route("POST", "/v1/search", { json: [] });
    const before = Date.now();
    await request(`${up.url}/v1/search?limit=5&limit=6`, {
      method: "POST",
      headers: { "X-Api-Key": "k1", "content-type": "application/json" },
      body: JSON.stringify({ q: "p53" }),
    }).then((r) => r.body.dump());
    const [rec] = up.requests;
    expect(rec).toBeDefined();
    expect(rec?.method).toBe("POST");
    expect(rec?.path).toBe("/v1/search");
    expect(rec?.query.getAll("limit")).toEqual(["5", "6"]);
    expect(rec?.headers["x-api-key"]).toBe("k1");
    expect(rec?.body).toBe('{"q":"p53"}');
    expect(rec?.json).toEqual({ q: "p53" });
    expect(rec?.at).toBeGreaterThanOrEqual(before);
    expect(rec?.at).toBeLessThanOrEqual(Date.now());
  });

  it("records requests that hit no route, and leaves json undefined for non-JSON bodies", async () => {
    await fetch(`${up.url}/unrouted`, { method: "POST", body: "not json" }).then((r) => r.arrayBuffer());
    await fetch(`${up.url}/empty`).then((r) => r.arrayBuffer());
    expect(up.requests.map((r) => [r.path, r.body, r.json])).toEqual([
      ["/unrouted", "not json", undefined],
      ["/empty", "", undefined],
    ]);
  });

  it("filters with requestsTo by method and path pattern", async () => {
    up.route("*", /.*/, { json: 1 });
    await fetch(`${up.url}/a`).then((r) => r.arrayBuffer());
    await fetch(`${up.url}/a`, { method: "POST", body: "1" }).then((r) => r.arrayBuffer());
    await fetch(`${up.url}/b/1`).then((r) => r.arrayBuffer());
    await fetch(`${up.url}/b/2?x=1`).then((r) => r.arrayBuffer());
    expect(up.requestsTo("GET", "/a")).toHaveLength(1);
    expect(up.requestsTo("*", "/a")).toHaveLength(2);
    expect(up.requestsTo("GET", /^\/b\//).map((r) => r.path)).toEqual(["/b/1", "/b/2"]);
    expect(up.requestsTo("DELETE", "/a")).toHaveLength(0);
  });

  it("returns a copy, so later requests do not change an earlier snapshot", async () => {
    const snapshot = up.requests;
    await fetch(`${up.url}/x`).then((r) => r.arrayBuffer());
    expect(snapshot).toHaveLength(0);
    expect(up.requests).toHaveLength(1);
  });
});

describe("reset", () => {
  it("clears routes, faults and recorded requests", async () => {
    up.route("GET", "/r", { json: "r" });
    up.fault("GET", "/f", { kind: "status", status: 503 });
    await fetch(`${up.url}/r`).then((r) => r.arrayBuffer());
    up.reset();
    expect(up.requests).toHaveLength(0);
    expect((await fetch(`${up.url}/r`)).status).toBe(404);
    expect((await fetch(`${up.url}/f`)).status).toBe(404);
    expect(up.requests).toHaveLength(2);
  });
});
