import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAliceNotes, makeProject, type Project, type ServeProcess, startServe } from "../helpers.js";
import { type AuthorizationServer, startAuthorizationServer } from "./authorization-server.js";
import { foreignKey, signToken } from "./oauth-tokens.js";

const SECRET = "axolotl-regeneration-cohort-5521";
const CLIENTS = {
  alice: { secret: "alice-secret-4f1d9a", scope: "repo", groups: ["regen-lab"] },
  bob: { secret: "bob-secret-7c2e55", scope: "repo", groups: ["mouse-lab"] },
};

let as: AuthorizationServer;
let other: AuthorizationServer;
let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  as = await startAuthorizationServer(CLIENTS);
  // Another issuer bob controls, with a client named like his.
  other = await startAuthorizationServer({ bob: { secret: "bob-elsewhere-1a2b3c", scope: "repo" } });
  const config = {
    plugins: { "private-repo": { options: { indexPath: "repo" } } },
    auth: {
      oidc: { issuer: as.issuer, groupsClaim: "groups" },
      scopes: { "private-repo": ["repo"] },
    },
  };
  project = makeProject({
    workspace: ["@quiver/plugin-private-repo"],
    config: { name: "quiver.config.json", text: JSON.stringify(config) },
  });
  await addAliceNotes(project.dir, "repo", {
    title: "Unpublished regeneration cohort",
    body: `Our ${SECRET} result on limb regeneration.`,
  });
  // With the co-scientist profile: its execute_external_tool goes through private_repo_search.
  serve = await startServe(["--profile", "co-scientist"], { cwd: project.dir });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await as?.close();
  await other?.close();
});

const search = (token: string, collections?: string[]) =>
  fetch(`${serve.url}/tools/private_repo_search/call`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({
      search_terms: "axolotl regeneration cohort",
      ...(collections ? { filters: { collections } } : {}),
    }),
  });
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe("private-repo behind the identity provider", () => {
  it("lists the profile's tool only to a token with the scope of a tool it goes through", async () => {
    const token = (scope: string) =>
      signToken(
        { iss: as.issuer, aud: serve.url, sub: "alice", client_id: "alice", scope, exp: inAnHour() },
        as.signingKey(),
      );
    const names = async (scope: string) =>
      (
        (await (
          await fetch(`${serve.url}/tools`, { headers: { authorization: `Bearer ${await token(scope)}` } })
        ).json()) as { tools: { name: string }[] }
      ).tools.map((t) => t.name);
    expect(await names("repo")).toEqual(
      expect.arrayContaining(["execute_external_tool", "private_repo_search"]),
    );
    const without = await names("profile");
    expect(without).not.toContain("private_repo_search");
    expect(without).not.toContain("execute_external_tool");
    // MCP's tools/list applies the same rule.
    const mcpNames = async (scope: string) => {
      const client = new Client({ name: "t", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${await mcpToken(scope)}` } },
        }),
      );
      try {
        return (await client.listTools()).tools.map((t) => t.name);
      } finally {
        await client.close();
      }
    };
    const mcpToken = (scope: string) =>
      signToken(
        { iss: as.issuer, aud: `${serve.url}/mcp`, sub: "alice", client_id: "alice", scope, exp: inAnHour() },
        as.signingKey(),
      );
    expect(await mcpNames("repo")).toEqual(
      expect.arrayContaining(["execute_external_tool", "private_repo_search"]),
    );
    expect(await mcpNames("profile")).not.toContain("execute_external_tool");
  });

  it("gives alice her collection with her token (the principal from sub)", async () => {
    const r = (await (await search(await as.token("alice", serve.url))).json()) as {
      data: { results: unknown[] };
    };
    expect(JSON.stringify(r)).toContain(SECRET);
  });

  it("gives bob's own token nothing of alice's, asked for by name or not", async () => {
    const token = await as.token("bob", serve.url);
    for (const response of [await search(token), await search(token, ["alice/unpublished"])]) {
      expect(await response.text()).not.toContain(SECRET);
    }
    const named = (await (await search(token, ["alice/unpublished"])).json()) as { status: string };
    expect(named.status).toBe("access_denied");
  });

  it.each([
    ["bob's token for another audience", async () => as.token("bob", "https://elsewhere.example.org")],
    [
      "bob's expired token",
      async () =>
        signToken(
          {
            iss: as.issuer,
            aud: serve.url,
            sub: "bob",
            client_id: "bob",
            scope: "repo",
            exp: inAnHour() - 7200,
          },
          as.signingKey(),
        ),
    ],
    [
      "a token with bob's client id and alice's sub from another issuer",
      async () =>
        signToken(
          {
            iss: other.issuer,
            aud: serve.url,
            sub: "alice",
            client_id: "bob",
            scope: "repo",
            exp: inAnHour(),
          },
          other.signingKey(),
        ),
    ],
    [
      "a token claiming alice under the right issuer, signed with bob's own key",
      async () =>
        signToken(
          { iss: as.issuer, aud: serve.url, sub: "alice", client_id: "bob", scope: "repo", exp: inAnHour() },
          await foreignKey(as.signingKey().kid!),
        ),
    ],
    ["bob's token from the other issuer", async () => other.token("bob", serve.url)],
  ])("refuses %s with 401 and reveals nothing", async (_, token) => {
    const response = await search(await token());
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
    expect(await response.text()).not.toContain(SECRET);
  });
});
