// `baseUrl` and `bearer` of a request, against a real server on 127.0.0.1: the path the server sees,
// the authorization header it receives, and a hostile upstream echoing the token into its error.
import * as Redacted from "effect/Redacted";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../errors.js";
import { createHttpClient, joinUrl } from "./http-client.js";
import { type LocalServer, sendJson, startServer } from "./local-server.test-helpers.js";

const TOKEN = "pplx-4f9a8b7c6d5e3a2b";

let server: LocalServer;
const http = createHttpClient();

beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.url?.startsWith("/echo-401"))
      return sendJson(res, 401, { message: `invalid key: ${req.headers.authorization}` });
    return sendJson(res, 200, { path: req.url, authorization: req.headers.authorization ?? null });
  });
});
afterAll(async () => {
  await http.close();
  await server.close();
});

const pathOf = async (baseUrl: string, url: string) =>
  ((await http.json({ baseUrl, url })) as { path: string }).path;

describe("baseUrl", () => {
  it("joins a relative url with exactly one slash, whatever slashes either has", async () => {
    for (const [base, url] of [
      [server.origin, "/v1/x"],
      [`${server.origin}/`, "/v1/x"],
      [`${server.origin}//`, "v1/x"],
      [server.origin, "v1/x"],
    ] as const)
      expect(await pathOf(base, url), `${base} + ${url}`).toBe("/v1/x");
  });

  it("keeps the base's path", async () => {
    expect(await pathOf(`${server.origin}/api/`, "v1/x")).toBe("/api/v1/x");
    expect(await pathOf(`${server.origin}/api`, "/v1/x?q=1")).toBe("/api/v1/x?q=1");
  });

  it("is ignored for an absolute url", async () => {
    expect(await pathOf("https://elsewhere.invalid/api", `${server.origin}/direct`)).toBe("/direct");
    expect(joinUrl("https://h/api", new URL("https://other/x")).toString()).toBe("https://other/x");
  });

  it("appends the query to the joined url", async () => {
    const body = await http.json({ baseUrl: `${server.origin}/api/`, url: "/items", query: { q: "a b" } });
    expect((body as { path: string }).path).toBe("/api/items?q=a+b");
  });
});

describe("bearer", () => {
  it("sends authorization: Bearer <token>", async () => {
    const body = await http.json({ baseUrl: server.origin, url: "/me", bearer: Redacted.make(TOKEN) });
    expect(body).toMatchObject({ authorization: `Bearer ${TOKEN}` });
  });

  it("sends nothing when undefined", async () => {
    const body = await http.json({ baseUrl: server.origin, url: "/me", bearer: undefined });
    expect(body).toMatchObject({ authorization: null });
  });

  it("redacts the token from a failure without a `secrets` entry", async () => {
    const error = await http
      .request({ baseUrl: server.origin, url: "/echo-401", bearer: Redacted.make(TOKEN) })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(ToolFailure.isInstance(error)).toBe(true);
    const failure = error as ToolFailure;
    expect(failure.kind).toBe("access_denied");
    for (const text of [failure.message, failure.suggestion ?? "", JSON.stringify(failure), String(failure)])
      expect(text).not.toContain(TOKEN);
  });

  it("yields to an explicit authorization header", async () => {
    const body = await http.json({
      baseUrl: server.origin,
      url: "/me",
      bearer: Redacted.make(TOKEN),
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });
    expect(body).toMatchObject({ authorization: "Basic dXNlcjpwYXNz" });
  });
});
