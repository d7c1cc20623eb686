import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, parseRetryAfter, retryAfterFromHeaders } from "./retry-after.js";

const NOW = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
    expect(parseRetryAfter("1.5", NOW)).toBe(1500);
  });

  it("reads an HTTP-date relative to now", () => {
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", NOW)).toBe(5000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", new Date(NOW))).toBe(5000);
    // RFC 850 and asctime forms are HTTP-dates too
    expect(parseRetryAfter("Wednesday, 21-Oct-15 07:28:10 GMT", NOW)).toBe(10_000);
  });

  it("gives 0 for a date in the past", () => {
    expect(parseRetryAfter("Tue, 20 Oct 2015 07:28:00 GMT", NOW)).toBe(0);
  });

  it("gives undefined for garbage", () => {
    for (const value of [undefined, null, "", "  ", "soon", "-5", "1 2", "Mon", "5s", "0x10"]) {
      expect(parseRetryAfter(value, NOW), String(value)).toBeUndefined();
    }
  });
});

describe("retryAfterFromHeaders", () => {
  it("prefers retry-after-ms, then retry-after", () => {
    expect(retryAfterFromHeaders({ "retry-after-ms": "250", "retry-after": "3" }, NOW)).toBe(250);
    expect(retryAfterFromHeaders({ "retry-after": "3" }, NOW)).toBe(3000);
  });

  it("reads rate-limit reset headers in their usual forms", () => {
    expect(retryAfterFromHeaders({ "x-ratelimit-reset": String(NOW / 1000 + 30) }, NOW)).toBe(30_000);
    expect(retryAfterFromHeaders({ "x-ratelimit-reset": String(NOW + 1500) }, NOW)).toBe(1500);
    expect(retryAfterFromHeaders({ "ratelimit-reset": "7" }, NOW)).toBe(7000);
    expect(retryAfterFromHeaders({ ratelimit: "limit=100, remaining=0, reset=9" }, NOW)).toBe(9000);
    expect(retryAfterFromHeaders({ "x-ratelimit-reset-requests": "6m0s" }, NOW)).toBe(360_000);
    expect(
      retryAfterFromHeaders(
        { "x-ratelimit-reset-requests": "20ms", "x-ratelimit-reset-tokens": "1.5s" },
        NOW,
      ),
    ).toBe(1500);
  });

  it("clamps to [0, MAX_RETRY_AFTER_MS] and ignores what it cannot read", () => {
    expect(retryAfterFromHeaders({ "retry-after": "999999" }, NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterFromHeaders({ "x-ratelimit-reset": String(NOW / 1000 - 60) }, NOW)).toBe(0);
    expect(retryAfterFromHeaders({ "retry-after": "later" }, NOW)).toBeUndefined();
    expect(retryAfterFromHeaders({}, NOW)).toBeUndefined();
    expect(retryAfterFromHeaders({ "retry-after": ["2", "5"] }, NOW)).toBe(2000);
  });
});
