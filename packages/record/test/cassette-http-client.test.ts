import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { createCatalog, definePlugin, defineTool, secret, type ToolResult } from "@quiver/core";
import { Redacted } from "effect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { cassettePath } from "../src/cassette-file.js";
import { createCassetteHttpClient } from "../src/cassette-http-client.js";
import type { CassetteMode } from "../src/cassette-mode.js";
import { stringifyCassette } from "../src/stable-json.js";
import { type LocalServer, sendJson, startServer } from "./local-server.js";

/** The API key the recording runs with: it must never appear in a cassette. */
const CANARY = "canary-key-7f3a9c1e5b";
const PRINCIPAL = "alice.wonder@example.org";

/**
 * A plugin that sends its key every way plugins do (a `Redacted` query value, a bearer header, and
 * as a plain string in a JSON body), puts the caller in the URL and the body, and asks two
 * upstream endpoints at once.
 */
const canaryPlugin = definePlugin({
  specificationVersion: "v1",
  id: "canary",
  version: "1.0.0",
  config: z.object({ baseUrl: z.string(), apiKey: secret() }),
  tools: [
    defineTool({
      name: "canary_lookup",
      description: "Looks a term up on the canary upstream (record/replay test tool).",
      category: "computational_service",
      input: z.object({ q: z.string(), limit: z.number().int().optional(), who: z.string().optional() }),
      output: z.object({ hits: z.array(z.string()), owner: z.string(), extra: z.number() }),
      inject: { who: "principal" },
      run: async ({ q, limit, who }, ctx) => {
        const { baseUrl, apiKey } = ctx.config as { baseUrl: string; apiKey: Redacted.Redacted<string> };
        const [found, extra] = await Promise.all([
          ctx.http.json<{ hits: string[]; owner: string }>({
            url: `${baseUrl}/lookup/${encodeURIComponent(who ?? "anon")}`,
            query: { q, limit, api_key: apiKey },
            headers: { authorization: `Bearer ${Redacted.value(apiKey)}` },
            signal: ctx.signal,
          }),
          ctx.http.json<{ n: number }>({
            method: "POST",
            url: `${baseUrl}/extra`,
            json: { q, who, token: Redacted.value(apiKey) },
            signal: ctx.signal,
          }),
        ]);
        return { hits: found.hits, owner: found.owner, extra: extra.n };
      },
    }),
  ],
});

/** The upstream: answers echo the caller (so replay must give it back) and the key (so scrubbing must drop it). */
const upstream = () =>
  startServer((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/extra") {
      const { q } = JSON.parse(body) as { q: string };
      return sendJson(res, 200, { n: q.length, note: `key ${CANARY} accepted` });
    }
    const who = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    const q = url.searchParams.get("q") ?? "";
    return sendJson(
      res,
      200,
      { hits: [`${q}-1`, `${q}-2`].slice(0, Number(url.searchParams.get("limit") ?? 2)), owner: who },
      { date: new Date().toUTCString(), "x-powered-by": "canary" },
    );
  });

const catalogFor = (dir: string, mode: CassetteMode, baseUrl: string, apiKey: string) => {
  const catalog = createCatalog({ http: createCassetteHttpClient({ dir, mode }), env: {} });
  catalog.register(canaryPlugin, { baseUrl, apiKey });
  return catalog;
};

const SESSION = [
  { q: "aspirin", limit: 1 },
  { q: "ibuprofen" },
  { limit: 1, q: "aspirin" }, // the first call again, keys in another order: the same cassette
];

const callAll = async (catalog: ReturnType<typeof createCatalog>) => {
  const out: ToolResult[] = [];
  for (const input of SESSION) {
    out.push(await catalog.call("canary_lookup", input, { session: { principal: PRINCIPAL } }));
  }
  return out;
};

/** An envelope without what differs between any two calls: the call id and the duration. */
const comparable = (r: ToolResult) => {
  const { callId: _id, durationMs: _ms, ...metadata } = r.metadata;
  return { ...r, metadata };
};

const filesIn = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => join(dir, f));

let up: LocalServer;
let dir: string;
beforeEach(async () => {
  up = await upstream();
  dir = mkdtempSync(join(tmpdir(), "quiver-cassettes-"));
});
afterEach(() => up.close());

describe("createCassetteHttpClient", () => {
  it("records one cassette per tool call, named by tool and canonical input", async () => {
    const catalog = catalogFor(dir, "record", up.origin, CANARY);
    const live = await callAll(catalog);
    await catalog.close();
    expect(live.map((r) => r.status)).toEqual(["success", "success", "success"]);
    expect(live[0]?.data).toEqual({ hits: ["aspirin-1"], owner: PRINCIPAL, extra: 7 });

    const files = filesIn(dir);
    expect(files.sort()).toEqual(
      [
        cassettePath(dir, "canary_lookup", { q: "aspirin", limit: 1, who: "[PRINCIPAL]" }),
        cassettePath(dir, "canary_lookup", { q: "ibuprofen", who: "[PRINCIPAL]" }),
      ].sort(),
    );
    const cassette = JSON.parse(readFileSync(files[0]!, "utf8"));
    expect(cassette.tool).toBe("canary_lookup");
    expect(cassette.plugin).toBe("canary");
    expect(cassette.interactions).toHaveLength(2);
    expect(cassette.interactions.map((i: { method: string }) => i.method)).toEqual(["GET", "POST"]);
    expect(cassette.interactions[0]).toMatchObject({
      status: 200,
      request_headers: { authorization: "[REDACTED]" },
      response_headers: { "content-type": "application/json", "x-powered-by": "canary" },
    });
    expect(cassette.interactions[0].url).toMatch(/\/lookup\/\[PRINCIPAL\]\?q=\w+.*api_key=\[REDACTED\]/);
    expect(cassette.interactions[1].request_json).toEqual({
      q: expect.any(String),
      who: "[PRINCIPAL]",
      token: "[REDACTED]",
    });
    expect(cassette.interactions[0].elapsed_ms).toEqual(expect.any(Number));
  });

  it("writes neither the key (canary) nor the principal into any cassette", async () => {
    const catalog = catalogFor(dir, "record", up.origin, CANARY);
    await callAll(catalog);
    await catalog.close();
    const files = filesIn(dir);
    expect(files.length).toBe(2);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain("canary-key");
      expect(text).not.toContain(PRINCIPAL);
      expect(text).not.toContain(encodeURIComponent(PRINCIPAL));
      expect(text).not.toMatch(/"date"|recorded_at|user-agent|x-request-id/);
    }
    // The upstream did get the key and the caller: they were scrubbed, not left unsent.
    expect(up.seen.some((r) => r.headers.authorization === `Bearer ${CANARY}`)).toBe(true);
    expect(up.seen.some((r) => r.url.includes(encodeURIComponent(PRINCIPAL)))).toBe(true);
  });

  it("writes stable JSON: sorted keys, and the same bytes when re-recorded (but for elapsed_ms)", async () => {
    const again = mkdtempSync(join(tmpdir(), "quiver-cassettes-"));
    for (const target of [dir, again]) {
      const catalog = catalogFor(target, "record", up.origin, CANARY);
      await callAll(catalog);
      await catalog.close();
    }
    const withoutTiming = (text: string) => text.replace(/"elapsed_ms": \d+/g, '"elapsed_ms": 0');
    for (const file of filesIn(dir)) {
      const text = readFileSync(file, "utf8");
      expect(withoutTiming(readFileSync(file.replace(dir, again), "utf8"))).toBe(withoutTiming(text));
      expect(stringifyCassette(JSON.parse(text))).toBe(text);
      expect(Object.keys(JSON.parse(text))).toEqual(["input", "interactions", "plugin", "tool"]);
    }
  });

  it("records a gzip-encoded answer decoded, and replays it", async () => {
    const gz = await startServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const json = path === "/extra" ? { n: 1 } : { hits: ["gz-1"], owner: "o" };
      const zipped = /gzip/.test(String(req.headers["accept-encoding"]));
      res.writeHead(200, {
        "content-type": "application/json",
        ...(zipped ? { "content-encoding": "gzip" } : {}),
      });
      res.end(zipped ? gzipSync(JSON.stringify(json)) : JSON.stringify(json));
    });
    try {
      const recorder = catalogFor(dir, "record", gz.origin, CANARY);
      const live = await recorder.call("canary_lookup", { q: "z" }, { session: { principal: PRINCIPAL } });
      await recorder.close();
      expect(live.status, live.message).toBe("success");
      expect(gz.seen[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
      const cassette = JSON.parse(readFileSync(filesIn(dir)[0]!, "utf8"));
      expect(cassette.interactions.map((i: { response_json?: unknown }) => i.response_json)).toEqual(
        expect.arrayContaining([{ hits: ["gz-1"], owner: "o" }, { n: 1 }]),
      );
      const player = catalogFor(dir, "replay", gz.origin, "placeholder-key");
      const replayed = await player.call("canary_lookup", { q: "z" }, { session: { principal: PRINCIPAL } });
      await player.close();
      expect(comparable(replayed)).toEqual(comparable(live));
    } finally {
      await gz.close();
    }
  });

  it("replays the session with the network closed and gives identical envelopes", async () => {
    const recorder = catalogFor(dir, "record", up.origin, CANARY);
    const live = await callAll(recorder);
    await recorder.close();
    const requestsWhileRecording = up.seen.length;
    await up.close();

    // Another key (a placeholder, as in CI): the cassettes still match, the upstream is gone.
    const player = catalogFor(dir, "replay", up.origin, "placeholder-key");
    const replayed = await callAll(player);
    await player.close();
    expect(replayed.map(comparable)).toEqual(live.map(comparable));
    expect(up.seen.length).toBe(requestsWhileRecording);
    await expect(fetch(`${up.origin}/extra`)).rejects.toThrow();
  });

  it("replays as recorded when asked (timing: recorded)", async () => {
    const recorder = catalogFor(dir, "record", up.origin, CANARY);
    const live = await callAll(recorder);
    await recorder.close();
    await up.close();
    const catalog = createCatalog({
      http: createCassetteHttpClient({ dir, mode: "replay", timing: "recorded" }),
      env: {},
    });
    catalog.register(canaryPlugin, { baseUrl: up.origin, apiKey: "placeholder-key" });
    expect((await callAll(catalog)).map(comparable)).toEqual(live.map(comparable));
    await catalog.close();
  });

  it("answers unavailable, naming the missing cassette, for a call never recorded", async () => {
    const catalog = catalogFor(dir, "replay", up.origin, CANARY);
    const result = await catalog.call("canary_lookup", { q: "never" }, { session: { principal: PRINCIPAL } });
    await catalog.close();
    expect(result.status).toBe("unavailable");
    expect(result.error).toMatchObject({ kind: "unavailable", retryable: false });
    const expected = cassettePath(dir, "canary_lookup", { q: "never", who: "[PRINCIPAL]" });
    expect(result.message).toContain(expected);
    expect(result.message).toMatch(/No cassette for this call of canary_lookup/);
    expect(up.seen).toEqual([]);
  });

  it("answers unavailable, naming the cassette, for a request the cassette does not hold", async () => {
    const recorder = catalogFor(dir, "record", up.origin, CANARY);
    await recorder.call("canary_lookup", { q: "aspirin" }, { session: { principal: PRINCIPAL } });
    await recorder.close();
    const [file] = filesIn(dir);
    writeFileSync(file!, readFileSync(file!, "utf8").replace("/extra", "/elsewhere"));
    const catalog = catalogFor(dir, "replay", up.origin, CANARY);
    const result = await catalog.call(
      "canary_lookup",
      { q: "aspirin" },
      { session: { principal: PRINCIPAL } },
    );
    await catalog.close();
    expect(result.error?.kind).toBe("unavailable");
    expect(result.message).toContain(file);
    expect(result.message).toContain("has no recorded answer for POST");
  });

  it("replay-or-record sends only the calls without a cassette, and records them", async () => {
    const recorder = catalogFor(dir, "record", up.origin, CANARY);
    await recorder.call("canary_lookup", SESSION[0], { session: { principal: PRINCIPAL } });
    await recorder.close();
    expect(up.seen.length).toBe(2);
    const filler = catalogFor(dir, "replay-or-record", up.origin, CANARY);
    const results = await callAll(filler);
    await filler.close();
    expect(results.map((r) => r.status)).toEqual(["success", "success", "success"]);
    expect(up.seen.length).toBe(4); // only "ibuprofen" went out
    expect(up.seen.slice(2).every((r) => r.url.includes("ibuprofen") || r.url === "/extra")).toBe(true);
    expect(filesIn(dir).length).toBe(2);
  });

  it("records every attempt of a retried call in one cassette and replays them in order", async () => {
    await up.close();
    let served = 0;
    up = await startServer((_req, res) => {
      served++;
      if (served === 1) return sendJson(res, 503, { error: "busy" });
      return sendJson(res, 200, { value: served });
    });
    const flaky = definePlugin({
      specificationVersion: "v1",
      id: "flaky",
      version: "1.0.0",
      config: z.object({ baseUrl: z.string() }),
      tools: [
        defineTool({
          name: "flaky_get",
          description: "Reads a value from an upstream that fails once (record/replay test tool).",
          category: "computational_service",
          input: z.object({ key: z.string() }),
          output: z.object({ value: z.number() }),
          annotations: { readOnly: true, openWorld: true },
          policy: { retry: { times: 2, base: "1ms" } },
          run: async ({ key }, ctx) =>
            ctx.http.json<{ value: number }>({
              url: `${(ctx.config as { baseUrl: string }).baseUrl}/v/${key}`,
              signal: ctx.signal,
            }),
        }),
      ],
    });
    const session = async (mode: CassetteMode) => {
      const catalog = createCatalog({ http: createCassetteHttpClient({ dir, mode }), env: {} });
      catalog.register(flaky, { baseUrl: up.origin });
      const result = await catalog.call("flaky_get", { key: "k" });
      await catalog.close();
      return result;
    };
    const live = await session("record");
    expect(live).toMatchObject({ status: "success", data: { value: 2 }, metadata: { attempts: 2 } });
    const [file] = filesIn(dir);
    const cassette = JSON.parse(readFileSync(file!, "utf8"));
    expect(cassette.interactions.map((i: { status: number }) => i.status)).toEqual([503, 200]);
    await up.close();
    expect(comparable(await session("replay"))).toEqual(comparable(live));
  });

  it("says when a cassette cannot be written, and the call still answers", async () => {
    const notAFolder = join(dir, "file");
    writeFileSync(notAFolder, "");
    const problems: string[] = [];
    const catalog = createCatalog({
      http: createCassetteHttpClient({ dir: notAFolder, mode: "record", onError: (m) => problems.push(m) }),
      env: {},
    });
    catalog.register(canaryPlugin, { baseUrl: up.origin, apiKey: CANARY });
    const result = await catalog.call("canary_lookup", { q: "aspirin" });
    await catalog.close();
    expect(result.status).toBe("success");
    expect(problems).toEqual([
      expect.stringContaining(`Could not write the cassette ${notAFolder}/canary_lookup/`),
    ]);
  });

  it("refuses requests outside a tool call while replaying (plugin setup, health checks)", async () => {
    const http = createCassetteHttpClient({ dir, mode: "replay" });
    await expect(http.request({ url: `${up.origin}/lookup/x` })).rejects.toMatchObject({
      kind: "unavailable",
      message: expect.stringContaining("outside a tool call"),
    });
    await http.close();
    expect(up.seen).toEqual([]);
  });
});
