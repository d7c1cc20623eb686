import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "../helpers.js";
import { type AuthorizationServer, startAuthorizationServer } from "./authorization-server.js";
import { foreignKey, signToken, unsecuredToken } from "./oauth-tokens.js";

const CLIENTS = {
  alice: { secret: "alice-secret-4f1d9a", scope: "tools secrets:read", groups: ["lab-a"] },
  bob: { secret: "bob-secret-7c2e55", scope: "tools", groups: ["lab-b"] },
  carol: { secret: "carol-secret-0b8f21", scope: "tools", groups: ["lab-c"], opaque: true },
  // This server itself, as the client that introspects opaque tokens (RFC 7662).
  "quiver-rs": { secret: "rs-secret-6e4d2c", scope: "tools" },
};
const STATIC = "tok-ops-5a1c93e0";

let as: AuthorizationServer;
let other: AuthorizationServer;
let project: Project;
let serve: ServeProcess;
let mcpResource: string;

beforeAll(async () => {
  as = await startAuthorizationServer(CLIENTS);
  other = await startAuthorizationServer({
    alice: { secret: "other-alice-9d0e", scope: "tools secrets:read" },
  });
  const config = {
    tokens: { [STATIC]: "ops" },
    auth: {
      oidc: {
        issuer: as.issuer,
        groupsClaim: "groups",
        jwksCooldown: 0,
        introspection: { clientId: "quiver-rs", clientSecret: "env:QUIVER_TEST_INTROSPECTION_SECRET" },
      },
      // "identty" is a typo the server names at start-up.
      scopes: { identity: ["tools"], identity_secret: ["secrets:read"], identty: ["tools"] },
    },
  };
  project = makeProject({
    fixtures: ["identity"],
    workspace: ["@quiver/core"],
    config: { name: "quiver.config.json", text: JSON.stringify(config) },
  });
  serve = await startServe([], {
    cwd: project.dir,
    env: { QUIVER_TEST_INTROSPECTION_SECRET: CLIENTS["quiver-rs"].secret },
  });
  mcpResource = `${serve.url}/mcp`;
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await as?.close();
  await other?.close();
});

const api = (path: string, token?: string, init: RequestInit = {}) =>
  fetch(`${serve.url}${path}`, {
    ...init,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
const callTool = (name: string, token?: string) =>
  api(`/tools/${name}/call`, token, { method: "POST", body: "{}" });
const mcpInitialize = (token?: string) =>
  fetch(`${serve.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe("quiver serve as an OAuth 2.1 resource server", () => {
  it("publishes Protected Resource Metadata for the server and for the MCP endpoint (RFC 9728)", async () => {
    const root = (await (await api("/.well-known/oauth-protected-resource")).json()) as Record<
      string,
      unknown
    >;
    expect(root).toMatchObject({ resource: serve.url, authorization_servers: [as.issuer] });
    expect(root.scopes_supported).toEqual(expect.arrayContaining(["tools", "secrets:read"]));
    const mcp = (await (await api("/.well-known/oauth-protected-resource/mcp")).json()) as Record<
      string,
      unknown
    >;
    expect(mcp).toMatchObject({ resource: mcpResource, authorization_servers: [as.issuer] });
  });

  it("says at start-up whose tokens it accepts, and names a scope key that matches no tool", () => {
    expect(serve.stderr()).toContain(`OAuth access tokens from ${as.issuer} and 1 bearer token;`);
    expect(serve.stderr()).toContain(
      'auth.scopes: "identty" names no tool or plugin, so it requires nothing (did you mean "identity"?).',
    );
  });

  it("answers a request without a token 401 with resource_metadata and no error code", async () => {
    const http = await api("/tools");
    expect(http.status).toBe(401);
    expect(http.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${serve.url}/.well-known/oauth-protected-resource"`,
    );
    const mcp = await mcpInitialize();
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${serve.url}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("lets the MCP SDK's own client discover the authorization server from the 401, get a token and call tools", async () => {
    const authProvider = new ClientCredentialsProvider({
      clientId: "alice",
      clientSecret: CLIENTS.alice.secret,
      expectedIssuer: as.issuer,
      scope: CLIENTS.alice.scope,
    });
    const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpResource), { authProvider }));
    try {
      expect(authProvider.tokens()?.access_token).toBeTruthy();
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["identity_whoami", "identity_secret"]));
      const who = await client.callTool({ name: "identity_whoami", arguments: {} });
      expect((who.structuredContent as { data: unknown }).data).toEqual({
        principal: "alice",
        groups: ["lab-a"],
        clientId: "alice",
      });
    } finally {
      await client.close();
    }
  });

  it("accepts a token for the server's base URL on the HTTP API, and static tokens beside it", async () => {
    const token = await as.token("bob", serve.url);
    const who = (await (await callTool("identity_whoami", token)).json()) as { data: unknown };
    expect(who.data).toEqual({ principal: "bob", groups: ["lab-b"], clientId: "bob" });
    const ops = (await (await callTool("identity_whoami", STATIC)).json()) as { data: unknown };
    expect(ops.data).toEqual({ principal: "ops", groups: [], clientId: null });
  });

  it("checks an opaque token by introspection (RFC 7662), audience included", async () => {
    const token = await as.token("carol", serve.url);
    expect(token.split(".")).toHaveLength(1);
    const who = (await (await callTool("identity_whoami", token)).json()) as { data: unknown };
    expect(who.data).toEqual({ principal: "carol", groups: ["lab-c"], clientId: "carol" });
    const elsewhere = await as.token("carol", "https://elsewhere.example.org");
    const refused = await api("/tools", elsewhere);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
  });

  describe("refuses, each with 401 invalid_token and the resource metadata", () => {
    const expectInvalid = async (token: string) => {
      for (const response of [await api("/tools", token), await mcpInitialize(token)]) {
        expect(response.status).toBe(401);
        const challenge = response.headers.get("www-authenticate") ?? "";
        expect(challenge).toMatch(/^Bearer error="invalid_token"/);
        expect(challenge).toContain(`resource_metadata="${serve.url}/.well-known/oauth-protected-resource`);
      }
    };

    it("a token for another audience (RFC 8707)", async () => {
      await expectInvalid(await as.token("bob", "https://elsewhere.example.org/mcp"));
    });

    it("an expired token signed by the issuer", async () => {
      const past = Math.floor(Date.now() / 1000) - 3600;
      await expectInvalid(
        await signToken(
          { iss: as.issuer, aud: mcpResource, sub: "bob", client_id: "bob", exp: past },
          as.signingKey(),
        ),
      );
    });

    it("a token from another issuer", async () => {
      await expectInvalid(await other.token("alice", mcpResource));
    });

    it("a token whose signature is not the issuer's (same key id, another key)", async () => {
      const key = await foreignKey(as.signingKey().kid!);
      await expectInvalid(
        await signToken(
          { iss: as.issuer, aud: mcpResource, sub: "alice", client_id: "bob", exp: inAnHour() },
          key,
        ),
      );
    });

    it("an unsecured token (alg: none)", async () => {
      await expectInvalid(
        unsecuredToken({ iss: as.issuer, aud: mcpResource, sub: "alice", exp: inAnHour() }),
      );
    });

    it("a token signed with a key the issuer rotated out, after its new key was fetched", async () => {
      const old = await as.token("bob", mcpResource);
      expect((await api("/tools", old)).status).toBe(200);
      await as.rotate();
      const fresh = await as.token("bob", mcpResource);
      expect((await api("/tools", fresh)).status).toBe(200); // unknown kid: the JWKS is fetched again
      await expectInvalid(old);
    });
  });

  describe("scopes", () => {
    it("hides a tool whose scope the token lacks, and refuses its call 403 insufficient_scope", async () => {
      const token = await as.token("bob", serve.url);
      const list = (await (await api("/tools", token)).json()) as { tools: Array<{ name: string }> };
      expect(list.tools.map((t) => t.name)).toContain("identity_whoami");
      expect(list.tools.map((t) => t.name)).not.toContain("identity_secret");
      const call = await callTool("identity_secret", token);
      expect(call.status).toBe(403);
      expect(call.headers.get("www-authenticate")).toMatch(
        /^Bearer error="insufficient_scope".*scope="secrets:read".*resource_metadata="/,
      );
      expect(await call.text()).not.toContain("the-owl-flies-at-midnight");
    });

    it("leaves the tool out of the console's state too (GET /console/api/state)", async () => {
      const token = await as.token("bob", serve.url);
      const state = (await (await api("/console/api/state", token)).json()) as {
        plugins: Array<{ tools: Array<{ name: string }> }>;
      };
      const names = state.plugins.flatMap((p) => p.tools.map((t) => t.name));
      expect(names).toContain("identity_whoami");
      expect(names).not.toContain("identity_secret");
    });

    it("over MCP: tools/list leaves it out, and a call answers an access_denied envelope naming the scope", async () => {
      // A token bob's client got with the scope it may have: an MCP client following the spec asks
      // for every scope the metadata lists (scopes_supported), which this provider would refuse bob.
      const token = await as.token("bob", mcpResource, "tools");
      const client = new Client({ name: "oauth-scopes", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(mcpResource), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toContain("identity_whoami");
        expect(names).not.toContain("identity_secret");
        const r = await client.callTool({ name: "identity_secret", arguments: {} });
        expect(r.isError).toBe(true);
        const envelope = r.structuredContent as { status: string; message: string };
        expect(envelope.status).toBe("access_denied");
        expect(envelope.message).toContain("secrets:read");
      } finally {
        await client.close();
      }
    });

    it("finds only the tools a token may call (GET /find and quiver_find_tools)", async () => {
      const names = async (token: string) => {
        const http = (await (await api("/find?need=secret%20answer&limit=20", token)).json()) as {
          tools: Array<{ name: string }>;
        };
        const tool = (await (
          await api("/tools/quiver_find_tools/call", token, {
            method: "POST",
            body: JSON.stringify({ need: "secret answer", limit: 20 }),
          })
        ).json()) as { data: { tools: Array<{ name: string }> } };
        return { http: http.tools.map((t) => t.name), tool: tool.data.tools.map((t) => t.name) };
      };
      const bob = await names(await as.token("bob", serve.url));
      expect(bob.http).not.toContain("identity_secret");
      expect(bob.tool).not.toContain("identity_secret");
      const alice = await names(await as.token("alice", serve.url));
      expect(alice.http).toContain("identity_secret");
      expect(alice.tool).toContain("identity_secret");
    });

    it("lets a token with the scope call it", async () => {
      const token = await as.token("alice", serve.url);
      const r = (await (await callTool("identity_secret", token)).json()) as { data: unknown };
      expect(r.data).toEqual({ secret: "the-owl-flies-at-midnight" });
    });
  });
});
