import { Redacted } from "effect";
import { describe, expect, it } from "vitest";
import { parseRedisUrl } from "./redis-url.js";

describe("parseRedisUrl", () => {
  it("accepts redis:// and rediss:// URLs, plain or Redacted", () => {
    expect(Redacted.value(parseRedisUrl("redis://127.0.0.1:6379").url)).toBe("redis://127.0.0.1:6379");
    const redacted = Redacted.make("rediss://cache.internal:6380/2");
    expect(parseRedisUrl(redacted).url).toBe(redacted);
  });

  it("keeps the URL Redacted so printing it shows no password", () => {
    const { url } = parseRedisUrl("redis://:s3cret-pw@127.0.0.1:6379");
    expect(String(url)).not.toContain("s3cret-pw");
    expect(JSON.stringify({ url })).not.toContain("s3cret-pw");
  });

  it("lists the password, raw and decoded, and the whole URL as secrets", () => {
    const { secrets } = parseRedisUrl("redis://app:p%40ss%2Fword@127.0.0.1:6379");
    expect(secrets).toEqual(["redis://app:p%40ss%2Fword@127.0.0.1:6379", "p%40ss%2Fword", "p@ss/word"]);
    expect(parseRedisUrl("redis://127.0.0.1:6379").secrets).toEqual([]);
  });

  it("rejects other schemes and garbage without echoing the value", () => {
    for (const bad of ["http://:pw-in-url@127.0.0.1:6379", "not a url :pw-in-url@", ""]) {
      let message = "";
      try {
        parseRedisUrl(bad);
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        message = `${(error as Error).message} ${(error as Error).stack ?? ""}`;
      }
      expect(message).toMatch(/redis:\/\/ or rediss:\/\//);
      expect(message).not.toContain("pw-in-url");
    }
  });
});
