import { describe, expect, it } from "vitest";
import { bearerAuth, tokenPrincipals } from "../src/index.js";

describe("bearerAuth", () => {
  it("maps a bearer token to its principal and refuses missing, malformed or unknown tokens", () => {
    const auth = bearerAuth({ "tok-abc": "alice", "tok-def": "bob" });
    expect(auth("Bearer tok-abc")).toEqual({ ok: true, principal: "alice" });
    expect(auth("bearer   tok-def  ")).toEqual({ ok: true, principal: "bob" });
    expect(auth(undefined)).toEqual({
      ok: false,
      message: "Missing bearer token: send Authorization: Bearer <token>.",
    });
    expect(auth("Basic dXNlcjpwYXNz")).toMatchObject({ ok: false });
    expect(auth("Bearer tok-xyz")).toEqual({ ok: false, message: "Unknown bearer token." });
  });

  it("refuses every token when no tokens are set", () => {
    expect(bearerAuth({})("Bearer anything")).toEqual({ ok: false, message: "Unknown bearer token." });
  });

  it("looks tokens up exactly", () => {
    const principalOf = tokenPrincipals({ "tok-abc": "alice" });
    expect(principalOf("tok-abc")).toBe("alice");
    expect(principalOf("tok-ab")).toBeUndefined();
  });
});
