import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Catalog,
  createCatalog,
  definePlugin,
  defineTool,
  fail,
  matchTemplate,
  secret,
} from "../src/index.js";

// A notes service on a real socket: `/notes/<owner>/<id>` answers the note's text, `/down` a 503.
let server: Server;
let origin = "";
let served = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    served++;
    const [, , owner, id] = (req.url ?? "").split("/");
    if (req.url === "/down") {
      res.writeHead(503).end("down");
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" }).end(`note ${id} of ${owner}`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const notesPlugin = (opts: { readonly setupFails?: boolean; readonly callsPerMinute?: number } = {}) =>
  definePlugin({
    id: "notes",
    version: "1.0.0",
    config: z.object({ baseUrl: z.string(), token: secret({ env: "NOTES_TOKEN" }).optional() }),
    setup: async ({ config }) => {
      if (opts.setupFails) throw new Error("the notes index is missing");
      return { base: config.baseUrl };
    },
    tools: [
      defineTool({
        name: "notes_ping",
        description: "Answers pong.",
        category: "computational_service",
        input: z.object({}),
        output: z.object({ ok: z.boolean() }),
        annotations: { readOnly: true, openWorld: true },
        ...(opts.callsPerMinute
          ? { policy: { rateLimit: { limit: opts.callsPerMinute, window: "1 minute" } } }
          : {}),
        run: async (_input, ctx) => {
          await ctx.http.request({ baseUrl: ctx.config.baseUrl, url: "/down" });
          return { ok: true };
        },
      }),
    ],
    resources: [
      {
        uri: "notes://index",
        name: "index",
        mimeType: "text/plain",
        read: (ctx) => [{ uri: "notes://index", text: `notes of ${ctx.caller.principal ?? "nobody"}` }],
      },
    ],
    resourceTemplates: [
      {
        uriTemplate: "notes://note/{id}",
        name: "note",
        title: "A note",
        mimeType: "text/plain",
        complete: {
          id: (value, ctx) => ["n1", "n2", "x9"].filter((n) => n.startsWith(value) && !!ctx.caller),
        },
        read: async (uri, { id }, ctx) => {
          // Each principal reads only its own notes: the owner is who asks, never a URI part.
          const owner = ctx.caller.principal;
          if (!owner) throw fail.accessDenied("Sign in to read notes.");
          if (id === "missing") return [];
          if (id === "secret") throw new Error(`upstream said ${ctx.config.token ?? ""}`);
          const res = await ctx.http.request({
            baseUrl: ctx.resources.base,
            url: `/notes/${owner}/${id}`,
            signal: ctx.signal,
          });
          return [{ uri, mimeType: "text/plain", text: res.body }];
        },
      },
    ],
    prompts: [
      {
        name: "summarise_note",
        description: "Summarise one of your notes.",
        arguments: [
          {
            name: "id",
            required: true,
            complete: (value) => ["n1", "n2"].filter((n) => n.startsWith(value)),
          },
        ],
        get: (args) => [{ role: "user", content: { type: "text", text: `Summarise note ${args.id}.` } }],
      },
    ],
  });

const alice = { session: { principal: "alice" } };
const bob = { session: { principal: "bob" } };

describe("the catalog serves the plugins' resources, prompts and completions", () => {
  let catalog: Catalog;
  beforeAll(() => {
    catalog = createCatalog({ env: { NOTES_TOKEN: "tok-123456" } });
    catalog.register(notesPlugin(), { baseUrl: origin });
  });
  afterAll(() => catalog.close());

  it("lists them without their functions", () => {
    expect(catalog.resources()).toEqual([
      { uri: "notes://index", name: "index", mimeType: "text/plain", plugin: "notes" },
    ]);
    expect(catalog.resourceTemplates()).toEqual([
      {
        uriTemplate: "notes://note/{id}",
        name: "note",
        title: "A note",
        mimeType: "text/plain",
        plugin: "notes",
        completes: ["id"],
      },
    ]);
    expect(catalog.prompts()).toEqual([
      {
        name: "summarise_note",
        description: "Summarise one of your notes.",
        arguments: [{ name: "id", required: true, completes: true }],
        plugin: "notes",
      },
    ]);
  });

  it("reads a template's resource through the plugin's HTTP client, as the caller", async () => {
    expect(await catalog.readResource("notes://note/n1", alice)).toEqual({
      ok: true,
      value: [{ uri: "notes://note/n1", mimeType: "text/plain", text: "note n1 of alice" }],
    });
    const asBob = await catalog.readResource("notes://note/n1", bob);
    expect(asBob).toMatchObject({ ok: true, value: [{ text: "note n1 of bob" }] });
    expect(await catalog.readResource("notes://index", alice)).toMatchObject({
      value: [{ text: "notes of alice" }],
    });
  });

  it("answers failures as data: unknown or empty resources, a refusal, a secret redacted", async () => {
    expect(await catalog.readResource("notes://elsewhere/1", alice)).toEqual({
      ok: false,
      kind: "not_found",
      message: "No resource at notes://elsewhere/1.",
    });
    expect(await catalog.readResource("notes://note/missing", alice)).toMatchObject({
      ok: false,
      kind: "not_found",
    });
    expect(await catalog.readResource("notes://note/n1")).toMatchObject({
      ok: false,
      kind: "access_denied",
      message: "Sign in to read notes.",
    });
    const leaked = await catalog.readResource("notes://note/secret", alice);
    expect(leaked).toMatchObject({ ok: false, kind: "internal" });
    expect(JSON.stringify(leaked)).not.toContain("tok-123456");
  });

  it("gets a prompt and checks its required arguments", async () => {
    expect(await catalog.getPrompt("summarise_note", { id: "n2" }, alice)).toEqual({
      ok: true,
      value: {
        description: "Summarise one of your notes.",
        messages: [{ role: "user", content: { type: "text", text: "Summarise note n2." } }],
      },
    });
    expect(await catalog.getPrompt("summarise_note", {}, alice)).toMatchObject({
      ok: false,
      kind: "invalid_input",
      message: "summarise_note needs id.",
    });
    expect(await catalog.getPrompt("nope", {})).toMatchObject({ ok: false, kind: "not_found" });
  });

  it("completes prompt arguments and template variables from the plugin", async () => {
    expect(await catalog.complete({ prompt: "summarise_note", argument: "id" }, "n")).toEqual({
      ok: true,
      value: ["n1", "n2"],
    });
    expect(await catalog.complete({ uriTemplate: "notes://note/{id}", argument: "id" }, "x", alice)).toEqual({
      ok: true,
      value: ["x9"],
    });
    expect(await catalog.complete({ prompt: "summarise_note", argument: "other" }, "")).toEqual({
      ok: true,
      value: [],
    });
  });
});

describe("resource reads run under the plugin's policies", () => {
  it("a circuit the plugin's tools opened refuses its reads too, without reaching the upstream", async () => {
    const catalog = createCatalog({
      env: {},
      policies: { "*": { breaker: { failures: 2, openFor: "1m" }, retry: false } },
    });
    catalog.register(notesPlugin(), { baseUrl: origin });
    for (let i = 0; i < 2; i++) expect((await catalog.call("notes_ping", {})).status).toBe("unavailable");
    const before = served;
    const read = await catalog.readResource("notes://note/n1", alice);
    expect(read).toMatchObject({ ok: false, kind: "unavailable" });
    expect(read.ok ? "" : read.message).toMatch(/paused after repeated upstream failures/);
    expect(served).toBe(before);
    await catalog.close();
  });

  it("reads take the rate limit the plugin's tools share: over it, a read is refused before the upstream", async () => {
    const catalog = createCatalog({ env: {}, policies: { "*": { breaker: false, retry: false } } });
    catalog.register(notesPlugin({ callsPerMinute: 3 }), { baseUrl: origin });
    expect((await catalog.call("notes_ping", {})).status).toBe("unavailable"); // one token, upstream reached
    expect(await catalog.readResource("notes://note/n1", alice)).toMatchObject({ ok: true });
    expect(await catalog.readResource("notes://note/n2", alice)).toMatchObject({ ok: true });
    const before = served;
    const over = await catalog.readResource("notes://note/n1", alice);
    expect(over).toMatchObject({ ok: false, kind: "rate_limited" });
    expect(over.ok ? "" : over.message).toMatch(
      /the notes plugin is over its rate limit of 3 calls per 60 s/,
    );
    expect((await catalog.call("notes_ping", {})).error?.kind).toBe("rate_limited");
    expect(served).toBe(before);
    await catalog.close();
  });

  it("a setup that fails is `unavailable`, naming why; a caller's abort stops the read", async () => {
    const catalog = createCatalog({ env: {} });
    catalog.register(notesPlugin({ setupFails: true }), { baseUrl: origin });
    expect(await catalog.readResource("notes://note/n1", alice)).toMatchObject({
      ok: false,
      message: expect.stringContaining("the notes index is missing"),
    });
    const aborted = await catalog.readResource("notes://note/n1", { ...alice, signal: AbortSignal.abort() });
    expect(aborted).toMatchObject({ ok: false, kind: "unavailable" });
    await catalog.close();
  });

  it("refuses a template with an operator it cannot match", () => {
    expect(() =>
      definePlugin({
        id: "bad",
        version: "1.0.0",
        tools: [],
        resourceTemplates: [{ uriTemplate: "bad://{?query}", name: "q", read: () => [] }],
      }),
    ).toThrow(/an expression other than \{name\} or \{\+name\}/);
  });
});

describe("completers see the arguments already filled in (MCP's context.arguments)", () => {
  it("passes the others to the completer, never the argument being completed", async () => {
    const seen: Array<Record<string, string>> = [];
    const catalog = createCatalog({ env: {} });
    catalog.register(
      definePlugin({
        id: "pairs",
        version: "1.0.0",
        tools: [],
        resourceTemplates: [
          {
            uriTemplate: "pairs://{first}/{second}",
            name: "pair",
            complete: {
              // The second of a pair is never the first one chosen.
              second: (value, _ctx, given) => {
                seen.push({ ...given });
                return ["a1", "a2", "b1"].filter((v) => v.startsWith(value) && v !== given.first);
              },
            },
            read: () => [],
          },
        ],
      }),
    );
    const target = { uriTemplate: "pairs://{first}/{second}", argument: "second" };
    expect(await catalog.complete({ ...target, arguments: { first: "a1", second: "a" } }, "a")).toEqual({
      ok: true,
      value: ["a2"],
    });
    expect(await catalog.complete(target, "a")).toEqual({ ok: true, value: ["a1", "a2"] });
    expect(seen).toEqual([{ first: "a1" }, {}]);
    await catalog.close();
  });
});

describe("matchTemplate", () => {
  it("matches simple and reserved expressions, percent-decoded", () => {
    expect(matchTemplate("a://doc/{collection}/{id}", "a://doc/lab%20one/42")).toEqual({
      collection: "lab one",
      id: "42",
    });
    expect(matchTemplate("a://file/{+path}", "a://file/x/y.pdb")).toEqual({ path: "x/y.pdb" });
    expect(matchTemplate("a://doc/{id}", "a://doc/x/y")).toBeUndefined();
    expect(matchTemplate("a://doc/{id}.pdb", "a://doc/P1.cif")).toBeUndefined();
    expect(matchTemplate("a://doc/{id}", "a://doc/%E0%A4%A")).toBeUndefined();
  });
});
