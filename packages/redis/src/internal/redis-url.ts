import { Redacted } from "effect";

/** A checked Redis URL and the parts of it that must never be printed. */
export interface RedisUrl {
  readonly url: Redacted.Redacted<string>;
  /** The whole URL and its password (raw and decoded) when it has one. */
  readonly secrets: ReadonlyArray<string>;
}

/**
 * Checks a redis:// or rediss:// URL without ever putting it in an error (a URL parse error carries
 * its input, which may hold a password).
 */
export const parseRedisUrl = (input: string | Redacted.Redacted<string>): RedisUrl => {
  const url = Redacted.isRedacted(input) ? input : Redacted.make(input);
  const text = Redacted.value(url);
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")) {
    throw new TypeError(
      "redisStore: `url` must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379 (the value is not shown: it may hold a password).",
    );
  }
  const secrets: string[] = [];
  if (parsed.password !== "") {
    secrets.push(text, parsed.password);
    try {
      const decoded = decodeURIComponent(parsed.password);
      if (decoded !== parsed.password) secrets.push(decoded);
    } catch {
      // A malformed escape: the raw form is already masked.
    }
  }
  return { url, secrets };
};
