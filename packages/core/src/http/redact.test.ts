import { Redacted } from "effect";
import { describe, expect, it } from "vitest";
import { isSensitiveParam, makeRedactor, maskUrls, REDACTED } from "./redact.js";

describe("isSensitiveParam", () => {
  it("recognises credential-like names", () => {
    for (const name of [
      "api_key",
      "apikey",
      "apiKey",
      "key",
      "token",
      "access_token",
      "password",
      "secret",
    ]) {
      expect(isSensitiveParam(name), name).toBe(true);
    }
    for (const name of ["client_secret", "X-API-Key", "refresh_token", "api%5Fkey", "sig"]) {
      expect(isSensitiveParam(name), name).toBe(true);
    }
  });

  it("leaves ordinary names alone", () => {
    for (const name of ["search", "limit", "q", "page", "sort", "id", "monkey_business"]) {
      expect(isSensitiveParam(name), name).toBe(false);
    }
  });
});

describe("maskUrls", () => {
  it("masks sensitive query values and userinfo in any URL in a text", () => {
    expect(maskUrls("GET https://x.test/a?api_key=abc&q=1 failed")).toBe(
      `GET https://x.test/a?api_key=${REDACTED}&q=1 failed`,
    );
    expect(maskUrls("see https://x.test/?q=1&token=t0k#frag")).toBe(
      `see https://x.test/?q=1&token=${REDACTED}#frag`,
    );
    expect(maskUrls("https://user:pa55@x.test/p?password=p&limit=5")).toBe(
      `https://${REDACTED}@x.test/p?password=${REDACTED}&limit=5`,
    );
    expect(maskUrls("no url here")).toBe("no url here");
  });
});

describe("makeRedactor", () => {
  it("replaces plain and Redacted secrets, and their URL-encoded forms", () => {
    const redact = makeRedactor([Redacted.make("s3cr3t/+="), "plain-key"]);
    expect(redact("a s3cr3t/+= b plain-key c")).toBe(`a ${REDACTED} b ${REDACTED} c`);
    expect(redact(`https://x.test/?k=${encodeURIComponent("s3cr3t/+=")}`)).toBe(
      `https://x.test/?k=${REDACTED}`,
    );
    expect(redact("q=s3cr3t%2F%2B%3D")).toBe(`q=${REDACTED}`);
  });

  it("replaces a longer secret before a shorter one it contains", () => {
    const redact = makeRedactor(["abc", "abcdef"]);
    expect(redact("abcdef")).toBe(REDACTED);
  });

  it("ignores empty secrets and still masks URLs", () => {
    const redact = makeRedactor([""]);
    expect(redact("x https://h.test/?apikey=1")).toBe(`x https://h.test/?apikey=${REDACTED}`);
  });
});
