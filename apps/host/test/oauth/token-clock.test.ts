import { createOAuthGate } from "@quiver/mcp/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthorizationServer, startAuthorizationServer } from "./authorization-server.js";

const RESOURCE = "https://quiver.example.org";
let as: AuthorizationServer;
beforeAll(async () => {
  as = await startAuthorizationServer({ bob: { secret: "bob-secret-7c2e55", scope: "tools" } });
});
afterAll(() => as?.close());

describe("token lifetime on the gate's clock", () => {
  it("accepts a token until exp plus the tolerance, then answers 401 invalid_token", async () => {
    let now = new Date();
    const gate = createOAuthGate({
      oidc: { issuer: as.issuer, clockTolerance: "30s" },
      baseUrl: RESOURCE,
      now: () => now,
    });
    const token = await as.token("bob", RESOURCE);
    const header = `Bearer ${token}`;
    expect(await gate.authenticate(header)).not.toBeInstanceOf(Response);
    // One hour (the token's lifetime) and 20 s later: inside the tolerance.
    now = new Date(now.getTime() + 3_620_000);
    expect(await gate.authenticate(header)).not.toBeInstanceOf(Response);
    now = new Date(now.getTime() + 20_000);
    const refused = await gate.authenticate(header);
    expect(refused).toBeInstanceOf(Response);
    const response = refused as Response;
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer error="invalid_token", error_description="The access token has expired: get a new one\."/,
    );
  });
});
