import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { assertEnvelope } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AllPluginsServer, serveAllPlugins } from "../fuzz/serve-all-plugins.js";
import { addAliceNotes } from "../helpers.js";

const TOKENS = { "tok-alice-7f3e": "alice", "tok-bob-91c2": "bob" };
const ALICE = "tok-alice-7f3e";
const BOB = "tok-bob-91c2";
const SECRET = "zebrafish-vitamin-d-cohort-4471";

let server: AllPluginsServer;
beforeAll(async () => {
  server = await serveAllPlugins({ tokens: TOKENS }, async (project, options) => {
    await addAliceNotes(project.dir, String(options["private-repo"]!.indexPath), {
      title: "Unpublished cohort",
      body: `Our ${SECRET} result: vitamin D deficiency in zebrafish.`,
    });
  });
});
afterAll(() => server?.stop());

/** Every name a tool list would reveal: none may appear in a refusal. */
const TOOL_NAMES = /fda_search_drugs|private_repo_search|guia_get_guide|quiver_find_tools/;

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const rpc = (method: string, params: unknown = {}, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
const INIT = rpc("initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "access-test", version: "1.0.0" },
});

const refusals: Array<[string, Record<string, string>]> = [
  ["no token", {}],
  ["a wrong token", { authorization: "Bearer tok-mallory-0000" }],
  ["a token with trailing text", { authorization: `Bearer ${ALICE}x` }],
  ["another scheme", { authorization: `Basic ${Buffer.from(`alice:${ALICE}`).toString("base64")}` }],
  ["an empty bearer", { authorization: "Bearer " }],
];

describe.each(refusals)("with %s, a client gets nothing but the refusal", (_, auth) => {
  it.each([
    ["GET", "/tools", undefined],
    ["GET", "/tools/private_repo_search", undefined],
    ["POST", "/tools/private_repo_search/call", JSON.stringify({ search_terms: "zebrafish" })],
    ["POST", "/tools/fda_search_drugs/call", JSON.stringify({ search_criteria: { brand_name: "ozempic" } })],
    ["GET", "/find?need=drug%20approvals", undefined],
    ["GET", "/metrics", undefined],
    ["GET", "/console/api/state", undefined],
    ["GET", "/console/api/stats", undefined],
  ])("over HTTP: %s %s answers 401 and only the error", async (method, path, body) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...auth, "content-type": "application/json" },
      ...(body ? { body } : {}),
    });
    const text = await res.text();
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["error"]);
    expect(text).not.toMatch(TOOL_NAMES);
    expect(text).not.toContain(SECRET);
    expect(text).not.toMatch(/"status"|"metadata"|"data"/);
  });

  it("over MCP: initialize, tools/list and tools/call answer 401 without a session or a tool", async () => {
    for (const body of [
      INIT,
      rpc("tools/list", {}, 2),
      rpc("tools/call", { name: "private_repo_search", arguments: { search_terms: "zebrafish" } }, 3),
    ]) {
      const res = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { ...MCP_HEADERS, ...auth },
        body,
      });
      const text = await res.text();
      expect(res.status).toBe(401);
      expect(res.headers.get("mcp-session-id")).toBeNull();
      expect(text).not.toMatch(TOOL_NAMES);
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/structuredContent|"tools"/);
    }
  });

  it("over MCP with the SDK client: connecting fails, and no tool is listed", async () => {
    const client = new Client({ name: "access-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: auth },
    });
    await expect(client.connect(transport)).rejects.toThrow();
    await client.close().catch(() => {});
  });
});

/** An SDK client connected as the principal a token stands for. */
const connectAs = async (token: string) => {
  const client = new Client({ name: "access-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
};

const callHttp = async (token: string, input: unknown) => {
  const res = await fetch(`${server.url}/tools/private_repo_search/call`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  expect(res.status).toBe(200);
  return { envelope: assertEnvelope(await res.clone().json()), text: await res.text() };
};

describe("a principal never reaches another principal's private repository", () => {
  const attempts: Array<[string, Record<string, unknown>]> = [
    ["a plain search", { search_terms: "zebrafish vitamin D cohort" }],
    [
      "alice's collection by owner/name",
      { search_terms: "zebrafish", filters: { collections: ["alice/unpublished"] } },
    ],
    ["the collection's bare name", { search_terms: "zebrafish", filters: { collections: ["unpublished"] } }],
    ["a path-like owner", { search_terms: "zebrafish", filters: { collections: ["../alice/unpublished"] } }],
    ["the secret's own words", { search_terms: ["4471", "cohort", "unpublished"] }],
  ];

  it("alice, the owner, finds her document (over HTTP and MCP): the refusals below are about bob", async () => {
    const http = await callHttp(ALICE, { search_terms: "zebrafish vitamin D cohort" });
    expect(http.envelope.status).toBe("success");
    expect(http.text).toContain(SECRET);
    const alice = await connectAs(ALICE);
    const mcp = await alice.callTool({
      name: "private_repo_search",
      arguments: { search_terms: "zebrafish vitamin D cohort" },
    });
    expect(JSON.stringify(mcp.structuredContent)).toContain(SECRET);
    await alice.close();
  });

  it.each(attempts)("over HTTP, bob with %s gets no document of alice's", async (_, input) => {
    const { envelope, text } = await callHttp(BOB, input);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("Unpublished cohort");
    expect(envelope.error?.kind).not.toBe("internal");
  });

  it.each(attempts)("over MCP, bob with %s gets no document of alice's", async (_, input) => {
    const bob = await connectAs(BOB);
    const result = await bob.callTool({ name: "private_repo_search", arguments: input });
    const text = JSON.stringify(result);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("Unpublished cohort");
    expect(assertEnvelope(result.structuredContent).error?.kind).not.toBe("internal");
    await bob.close();
  });

  it("bob cannot become alice through the body, a session value or a header", async () => {
    for (const input of [
      { input: { search_terms: "zebrafish" }, session: { id: "s", values: { principal: "alice" } } },
      { search_terms: "zebrafish", principal: "alice" },
    ]) {
      const res = await fetch(`${server.url}/tools/private_repo_search/call`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${BOB}`,
          "content-type": "application/json",
          "x-quiver-principal": "alice",
          "x-quiver-session": "alice",
        },
        body: JSON.stringify(input),
      });
      expect(await res.text()).not.toContain(SECRET);
    }
  });
});
