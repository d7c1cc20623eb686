import { errors } from "undici";
import { describe, expect, it } from "vitest";
import { makeRedactor } from "./redact.js";
import { errorCode, failureForTransportError } from "./transport-error.js";

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

const input = {
  method: "GET",
  url: "https://api.test/v1?api_key=[REDACTED]",
  host: "api.test",
  service: "api.test",
  connectTimeoutMs: 100,
  headersTimeoutMs: 200,
  bodyTimeoutMs: 300,
  redact: makeRedactor(["sekret-value"]),
} as const;

describe("failureForTransportError", () => {
  it.each([
    [new errors.ConnectTimeoutError(), "timeout", "within 100 ms"],
    [new errors.HeadersTimeoutError(), "timeout", "within 200 ms"],
    [new errors.BodyTimeoutError(), "timeout", "for 300 ms"],
    [new AggregateError([withCode("ECONNREFUSED")]), "unavailable", "refused the connection"],
    [withCode("ENOTFOUND"), "unavailable", "Could not resolve"],
    [withCode("EAI_AGAIN"), "unavailable", "Could not resolve"],
    [new errors.SocketError("other side closed"), "unavailable", "closed the connection"],
    [withCode("ECONNRESET"), "unavailable", "closed the connection"],
    [withCode("EHOSTUNREACH"), "unavailable", "unreachable"],
    [withCode("CERT_HAS_EXPIRED"), "unavailable", "TLS certificate"],
    [withCode("HPE_INVALID_CONSTANT"), "upstream", "malformed HTTP response"],
    [new errors.ResponseExceededMaxSizeError(), "upstream", "too large"],
    [new errors.ClientDestroyedError(), "internal", "closed"],
  ])("%s → %s", (error, kind, text) => {
    const failure = failureForTransportError({ ...input, error });
    expect(failure.kind).toBe(kind);
    expect(failure.message).toContain(text);
    expect(failure.message).toContain("api.test");
  });

  it("marks TLS failures as not retryable and connection failures as retryable", () => {
    expect(failureForTransportError({ ...input, error: withCode("CERT_HAS_EXPIRED") }).retryable).toBe(false);
    expect(failureForTransportError({ ...input, error: withCode("ECONNREFUSED") }).retryable).toBe(true);
  });

  it("keeps only a redacted copy of the original error as cause", () => {
    const failure = failureForTransportError({
      ...input,
      error: withCode("EWEIRD", "failed with sekret-value inside"),
      status: 200,
    });
    expect(failure.status).toBe(200);
    expect(failure.message).not.toContain("sekret-value");
    expect(String(failure.cause)).toContain("[REDACTED]");
    expect(JSON.stringify(failure)).not.toContain("sekret-value");
  });

  it("finds codes in causes and aggregate errors", () => {
    expect(errorCode(new Error("x", { cause: withCode("ECONNRESET") }))).toBe("ECONNRESET");
    expect(errorCode(new AggregateError([new Error("a"), withCode("ECONNREFUSED")]))).toBe("ECONNREFUSED");
    expect(errorCode("nope")).toBeUndefined();
  });
});
