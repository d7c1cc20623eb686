// RFC 9728 §3.1: a resource's metadata lives at the well-known prefix followed by the resource's
// path, so a server published under a path prefix (a reverse proxy's /quiver) names and serves its
// documents there, and the MCP SDK's client finds them from the 401 it gets.
import { createOAuthGate } from "@quiver/mcp/server";
import { describe, expect, it } from "vitest";

const ISSUER = "https://login.example.org";

const challengeUrl = async (verdict: Promise<unknown>) => {
  const response = (await verdict) as Response;
  expect(response.status).toBe(401);
  return /resource_metadata="([^"]+)"/.exec(response.headers.get("www-authenticate") ?? "")?.[1];
};

describe("Protected Resource Metadata locations", () => {
  it("at the root: /.well-known/oauth-protected-resource and …/mcp", async () => {
    const gate = createOAuthGate({ oidc: { issuer: ISSUER }, baseUrl: "https://quiver.example.org/" });
    expect(await challengeUrl(gate.authenticate(undefined))).toBe(
      "https://quiver.example.org/.well-known/oauth-protected-resource",
    );
    expect(await challengeUrl(gate.authenticate(undefined, "/mcp"))).toBe(
      "https://quiver.example.org/.well-known/oauth-protected-resource/mcp",
    );
    const doc = await gate.metadataResponse("GET", "/.well-known/oauth-protected-resource/mcp")?.json();
    expect(doc).toMatchObject({
      resource: "https://quiver.example.org/mcp",
      authorization_servers: [ISSUER],
    });
  });

  it("under a path prefix: the well-known prefix goes before the prefix, not after it", async () => {
    const gate = createOAuthGate({ oidc: { issuer: ISSUER }, baseUrl: "https://example.org/quiver" });
    expect(await challengeUrl(gate.authenticate(undefined, "/mcp"))).toBe(
      "https://example.org/.well-known/oauth-protected-resource/quiver/mcp",
    );
    expect(await challengeUrl(gate.authenticate(undefined))).toBe(
      "https://example.org/.well-known/oauth-protected-resource/quiver",
    );
    const mcp = await gate
      .metadataResponse("GET", "/.well-known/oauth-protected-resource/quiver/mcp")
      ?.json();
    expect(mcp).toMatchObject({ resource: "https://example.org/quiver/mcp" });
    const root = await gate.metadataResponse("GET", "/.well-known/oauth-protected-resource/quiver/")?.json();
    expect(root).toMatchObject({ resource: "https://example.org/quiver" });
    // The old, wrong places answer nothing.
    expect(gate.metadataResponse("GET", "/.well-known/oauth-protected-resource/mcp")).toBeUndefined();
    expect(gate.metadataResponse("GET", "/quiver/.well-known/oauth-protected-resource/mcp")).toBeUndefined();
  });
});
