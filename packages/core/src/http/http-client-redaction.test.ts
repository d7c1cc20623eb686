import { Redacted } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolFailure } from "../errors.js";
import { createHttpClient } from "./http-client.js";
import { closedPort, type LocalServer, sendJson, startServer } from "./local-server.test-helpers.js";
import type { HttpClient, HttpRequestOptions } from "./types.js";

const SECRET = "sk-live-4f9a8b7c6d5e";
const TOKEN = "tok_9z8y7x6w5v";

/** Every text a failure exposes: what the model, the logs and a JSON dump would see. */
const exposed = (failure: ToolFailure): string[] => [
  failure.message,
  failure.suggestion ?? "",
  failure.guidance ?? "",
  JSON.stringify(failure),
  String(failure),
  failure.stack ?? "",
  String(failure.cause ?? ""),
  JSON.stringify(failure.cause ?? null),
];

const failureOf = async (promise: Promise<unknown>): Promise<ToolFailure> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error;
};

const expectNoSecret = (failure: ToolFailure) => {
  for (const text of exposed(failure)) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(encodeURIComponent(SECRET));
    expect(text).not.toContain(TOKEN);
  }
};

let server: LocalServer;
let http: HttpClient;
let refusedOrigin: string;

beforeAll(async () => {
  // A hostile upstream that echoes the credentials it receives back into every error.
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const echo = `${req.url} auth=${req.headers.authorization} key=${req.headers["x-api-key"]}`;
    switch (url.pathname) {
      case "/400":
        return sendJson(res, 400, { error: { message: `bad request ${echo}` } });
      case "/401":
        return sendJson(res, 401, { message: `invalid key ${echo}` });
      case "/404":
        return sendJson(res, 404, { detail: `nothing at ${echo}` });
      case "/429":
        return sendJson(res, 429, { message: echo }, { "retry-after": "1" });
      case "/500":
        res.writeHead(500, { "content-type": "text/plain" });
        return res.end(`crashed on ${echo}`);
      case "/html":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(`<html><head><title>Login ${echo}</title></head></html>`);
      case "/invalid-json":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(`{"echo": ${echo}`);
      case "/shape":
        return sendJson(res, 200, { echo });
      case "/away":
        res.writeHead(302, { location: `http://example.invalid/steal?api_key=${SECRET}&token=${TOKEN}` });
        return res.end();
      case "/big":
        return sendJson(res, 200, { echo, pad: "x".repeat(5000) });
      case "/hang":
        return;
      case "/slow-body":
        res.writeHead(200, { "content-type": "application/json" });
        return res.write(`{"echo": "${echo}"`);
      case "/reset":
        return req.socket.destroy();
      default:
        return sendJson(res, 200, { echo });
    }
  });
  refusedOrigin = `http://127.0.0.1:${await closedPort()}`;
  http = createHttpClient({
    headersTimeoutMs: 150,
    bodyTimeoutMs: 150,
    maxBodyBytes: 2000,
    apiKeyVar: "EX_KEY",
  });
});

afterAll(async () => {
  await http.close();
  await server.close();
});

/** The secret as a Redacted header and query parameter, the token as a plain credential-named parameter. */
const withRedacted = (url: string): HttpRequestOptions => ({
  url,
  headers: { authorization: Redacted.make(`Bearer ${SECRET}`) },
  query: { api_key: Redacted.make(SECRET), token: TOKEN, q: "aspirin" },
});

/** The secret as plain strings, declared through `secrets`. */
const withPlain = (url: string): HttpRequestOptions => ({
  url,
  headers: { "x-api-key": SECRET },
  query: { key: SECRET, access_token: TOKEN },
  secrets: [SECRET, Redacted.make(TOKEN)],
});

const paths = [
  "/400",
  "/401",
  "/404",
  "/429",
  "/500",
  "/html",
  "/invalid-json",
  "/shape",
  "/away",
  "/big",
  "/hang",
  "/slow-body",
  "/reset",
];

describe("createHttpClient: secrets never appear in failures", () => {
  it.each(paths)("%s (Redacted header and query parameter)", async (path) => {
    const failure = await failureOf(
      http.json({ ...withRedacted(`${server.origin}${path}`), schema: z.object({ echo: z.number() }) }),
    );
    expectNoSecret(failure);
  });

  it.each(paths)("%s (plain header and query parameter listed in secrets)", async (path) => {
    const failure = await failureOf(
      http.json({ ...withPlain(`${server.origin}${path}`), schema: z.object({ echo: z.number() }) }),
    );
    expectNoSecret(failure);
  });

  it("connection refused", async () => {
    expectNoSecret(await failureOf(http.request(withRedacted(`${refusedOrigin}/x`))));
    expectNoSecret(await failureOf(http.request(withPlain(`${refusedOrigin}/x`))));
  });

  it("the whole-request deadline", async () => {
    const failure = await failureOf(
      http.request({ ...withRedacted(`${server.origin}/hang`), timeoutMs: 50 }),
    );
    expect(failure.kind).toBe("timeout");
    expectNoSecret(failure);
  });

  it("a secret in the URL's own query string or userinfo, declared in secrets", async () => {
    const url = `http://user:${SECRET}@127.0.0.1:${server.port}/500?apikey=${SECRET}`;
    expectNoSecret(await failureOf(http.request({ url, secrets: [SECRET] })));
  });

  it("masks credential-named parameters even when no secret was declared", async () => {
    const failure = await failureOf(
      http.request({ url: `${server.origin}/404`, query: { api_key: SECRET } }),
    );
    expect(failure.message).toContain("api_key=[REDACTED]");
    expectNoSecret(failure);
  });

  it("shows the request as sent otherwise, with the secret masked", async () => {
    const failure = await failureOf(http.request(withRedacted(`${server.origin}/404`)));
    expect(failure.message).toContain("api_key=[REDACTED]");
    expect(failure.message).toContain("q=aspirin");
    expect(failure.status).toBe(404);
  });

  it("the secret is really sent, and the response URL is masked", async () => {
    const res = await http.request(withRedacted(`${server.origin}/ok`));
    expect(res.json<{ echo: string }>().echo).toContain(`auth=Bearer ${SECRET}`);
    expect(res.json<{ echo: string }>().echo).toContain(`api_key=${SECRET}`);
    expect(res.url).not.toContain(SECRET);
    expect(res.url).not.toContain(TOKEN);
  });
});
