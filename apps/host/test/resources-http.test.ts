import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BINARY, INVENTORY, NOTES } from "./fixtures/plugins/shelf/index.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { type AuthorizationServer, startAuthorizationServer } from "./oauth/authorization-server.js";

// GET /resources and GET /resources?uri=… on `quiver serve`, with the shelf and conformance fixture plugins:
// listing, text, JSON and binary contents, per-principal reads, and the errors as the API's JSON.
const TOKENS = { "tok-alice-3e9a": "alice", "tok-bob-5d20": "bob" };
const CLIENTS = {
  // An OAuth client whose token has the tools scope but not the shelf's.
  reader: { secret: "reader-secret-81f3", scope: "tools" },
};

let as: AuthorizationServer;
let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  as = await startAuthorizationServer(CLIENTS);
  const config = {
    tokens: TOKENS,
    auth: { oidc: { issuer: as.issuer, jwksCooldown: 0 }, scopes: { shelf: ["shelf:read"] } },
  };
  project = makeProject({
    fixtures: ["shelf", "conformance"],
    config: { name: "quiver.config.json", text: JSON.stringify(config) },
  });
  serve = await startServe([], { cwd: project.dir });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await as?.close();
});

const get = async (path: string, token = "tok-alice-3e9a") => {
  const response = await fetch(`${serve.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};
const read = (uri: string, token?: string) => get(`/resources?uri=${encodeURIComponent(uri)}`, token);

describe("GET /resources", () => {
  it("lists every plugin's resources and templates, with their plugin", async () => {
    const { status, body } = await get("/resources");
    expect(status).toBe(200);
    expect(body.resources.map((r: { uri: string }) => r.uri).sort()).toEqual([
      "shelf://readme",
      "shelf://record",
      "shelf://signature.bin",
      "test://static-binary",
      "test://static-text",
      "test://watched-resource",
    ]);
    expect(body.resources).toContainEqual(
      expect.objectContaining({ uri: "shelf://signature.bin", plugin: "shelf", size: 8 }),
    );
    expect(body.resourceTemplates).toContainEqual(
      expect.objectContaining({
        uriTemplate: "shelf://notes/{owner}",
        plugin: "shelf",
        completes: ["owner"],
      }),
    );
    expect(body.resourceTemplates).toContainEqual(
      expect.objectContaining({ uriTemplate: "test://template/{id}/data", plugin: "conformance" }),
    );
    const { body: root } = await get("/");
    expect(root.endpoints).toContain("GET /resources[?uri=]");
  });

  it("reads text, a template's JSON and binary as a base64 blob, as MCP's resources/read does", async () => {
    expect(await read("test://static-text")).toEqual({
      status: 200,
      body: {
        uri: "test://static-text",
        contents: [
          {
            uri: "test://static-text",
            mimeType: "text/plain",
            text: "This is the content of the static text resource.",
          },
        ],
      },
    });
    const data = await read("test://template/42/data");
    expect(JSON.parse(data.body.contents[0].text)).toEqual({
      id: "42",
      templateTest: true,
      data: "Data for ID: 42",
    });
    const binary = await read("shelf://signature.bin");
    expect(binary.body.contents).toEqual([
      { uri: "shelf://signature.bin", mimeType: "application/octet-stream", blob: BINARY },
    ]);
    expect(Buffer.from(binary.body.contents[0].blob, "base64")).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });

  it("reads as the caller's principal: alice reads her notes, bob gets a 404 and nothing of them", async () => {
    const alice = await read("shelf://notes/alice");
    expect(alice.status).toBe(200);
    expect(alice.body.contents[0].text).toBe(NOTES.alice);
    const bob = await read("shelf://notes/alice", "tok-bob-5d20");
    expect(bob.status).toBe(404);
    expect(bob.body.error.code).toBe("not_found");
    expect(JSON.stringify(bob.body)).not.toContain("cohort");
  });

  it("reads a call's linked result for the caller who made it; another principal gets a 404", async () => {
    const response = await fetch(`${serve.url}/tools/shelf_export/call`, {
      method: "POST",
      headers: { authorization: "Bearer tok-alice-3e9a", "content-type": "application/json" },
      body: "{}",
    });
    const envelope = (await response.json()) as Record<string, any>;
    const [link] = envelope.metadata.content;
    expect(link).toMatchObject({
      type: "resource_link",
      name: "inventory.tsv",
      mimeType: "text/tab-separated-values",
      size: INVENTORY.length,
    });
    expect(JSON.stringify(envelope)).not.toContain("box 7");
    const mine = await read(link.uri);
    expect(mine).toEqual({
      status: 200,
      body: {
        uri: link.uri,
        contents: [{ uri: link.uri, mimeType: "text/tab-separated-values", text: INVENTORY }],
      },
    });
    const bob = await read(link.uri, "tok-bob-5d20");
    expect(bob.status).toBe(404);
    expect(JSON.stringify(bob.body)).not.toContain("box 7");
  });

  it("answers a URI nothing serves 404, a malformed one and a plugin's refusal 400, as JSON errors", async () => {
    const missing = await read("test://no-such-thing");
    expect(missing).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(missing.body.error.message).toContain("test://no-such-thing");
    expect(missing.body.error.fix).toContain("GET /resources");
    expect(await read("not a uri")).toMatchObject({ status: 400, body: { error: { code: "invalid_uri" } } });
    const long = await read(`shelf://notes/${"x".repeat(41)}`);
    expect(long).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    expect(long.body.error.message).toContain("at most 40 characters");
  });

  it("refuses a token without the plugin's scopes (403) and leaves its resources out of the list", async () => {
    const token = await as.token("reader", serve.url);
    const refused = await read("shelf://readme", token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    expect(refused.body.error.message).toBe(
      "Reading shelf://readme needs the scope shelf:read, which your access token does not carry.",
    );
    // A template's URI too, with the challenge an OAuth client reads (RFC 6750).
    const response = await fetch(`${serve.url}/resources?uri=${encodeURIComponent("shelf://notes/reader")}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toMatch(/insufficient_scope.*shelf:read/);
    const listed = await get("/resources", token);
    expect(listed.body.resources.map((r: { plugin: string }) => r.plugin)).not.toContain("shelf");
    expect(listed.body.resources.map((r: { uri: string }) => r.uri)).toContain("test://static-text");
    expect((await read("test://static-text", token)).status).toBe(200);
  });

  it("needs a token, as the tool routes do", async () => {
    const response = await fetch(`${serve.url}/resources?uri=shelf://readme`);
    expect(response.status).toBe(401);
  });
});
