import { describe, expect, it } from "vitest";
import { upstreamErrorMessage } from "./error-body.js";
import { makeRedactor } from "./redact.js";
import { failureForStatus, statusToKind } from "./status-to-kind.js";

describe("statusToKind", () => {
  it.each([
    [200, undefined],
    [400, "invalid_input"],
    [422, "invalid_input"],
    [401, "access_denied"],
    [403, "access_denied"],
    [404, "upstream"],
    [408, "timeout"],
    [504, "timeout"],
    [429, "rate_limited"],
    [500, "upstream"],
    [503, "unavailable"],
    [418, "upstream"],
    [302, "upstream"],
  ])("%i → %s", (status, kind) => {
    expect(statusToKind(status)).toBe(kind);
  });
});

describe("upstreamErrorMessage", () => {
  it.each([
    ['{"error":{"message":"bad search","code":"BAD"}}', "bad search"],
    ['{"message":"limit too large"}', "limit too large"],
    ['{"detail":"Not authenticated"}', "Not authenticated"],
    ['{"detail":[{"loc":["body","q"],"msg":"field required"}]}', "q: field required"],
    ['{"error":"invalid_grant","error_description":"expired"}', "expired"],
    ['{"error":"Bad Request","message":"search is malformed"}', "Bad Request: search is malformed"],
    ['{"errors":[{"message":"one"},{"message":"two"}]}', "one; two"],
    ['{"title":"Conflict","status":409}', "Conflict"],
    ["plain text problem\n", "plain text problem"],
  ])("%s", (body, message) => {
    expect(upstreamErrorMessage(body)).toBe(message);
  });

  it("ignores HTML, empty and shapeless bodies, and clips long messages", () => {
    expect(upstreamErrorMessage("<html><body>oops</body></html>")).toBeUndefined();
    expect(upstreamErrorMessage("")).toBeUndefined();
    expect(upstreamErrorMessage('{"data":1}')).toBeUndefined();
    expect(upstreamErrorMessage(JSON.stringify({ message: "x".repeat(1000) }))?.length).toBe(300);
  });
});

describe("failureForStatus", () => {
  const base = {
    headers: {},
    body: "",
    method: "GET",
    url: "https://api.test/v1/items",
    service: "Example API",
    sentCredentials: false,
    redact: makeRedactor(),
  } as const;

  it("puts the upstream message in invalid_input failures", () => {
    const failure = failureForStatus({
      ...base,
      status: 400,
      body: '{"error":{"message":"bad field: lmit"}}',
    });
    expect(failure).toMatchObject({ kind: "invalid_input", status: 400, retryable: false });
    expect(failure.message).toContain("bad field: lmit");
  });

  it("suggests checking the API key variable when one was sent", () => {
    const sent = failureForStatus({
      ...base,
      status: 401,
      sentCredentials: true,
      apiKeyVar: "EXAMPLE_API_KEY",
    });
    expect(sent).toMatchObject({ kind: "access_denied", status: 401, retryable: false });
    expect(sent.suggestion).toContain("Check that EXAMPLE_API_KEY");
    const notSent = failureForStatus({ ...base, status: 403, apiKeyVar: "EXAMPLE_API_KEY" });
    expect(notSent.suggestion).toContain("set EXAMPLE_API_KEY");
  });

  it("reads Retry-After on 429 and 503 only", () => {
    expect(failureForStatus({ ...base, status: 429, headers: { "retry-after": "2" } })).toMatchObject({
      kind: "rate_limited",
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(failureForStatus({ ...base, status: 503, headers: { "retry-after": "4" } })).toMatchObject({
      kind: "unavailable",
      retryable: true,
      retryAfterMs: 4000,
    });
    expect(
      failureForStatus({ ...base, status: 400, headers: { "retry-after": "4" } }).retryAfterMs,
    ).toBeUndefined();
  });

  it("makes 404 and other 4xx not retryable, 5xx retryable", () => {
    expect(failureForStatus({ ...base, status: 404 })).toMatchObject({ kind: "upstream", retryable: false });
    expect(failureForStatus({ ...base, status: 409 })).toMatchObject({ kind: "upstream", retryable: false });
    expect(failureForStatus({ ...base, status: 502 })).toMatchObject({ kind: "upstream", retryable: true });
    expect(failureForStatus({ ...base, status: 504 })).toMatchObject({ kind: "timeout", retryable: true });
  });
});
