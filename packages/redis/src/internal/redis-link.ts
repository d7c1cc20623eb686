import type { StoreStatus } from "@quiver/core";

/**
 * Where the store reports that Redis went away and came back: `(level, message)`, one line each.
 * The shape of `@quiver/core`'s `RuntimeLog`, so a host passes the same function to both.
 */
export type RedisLog = (level: "warning" | "info", message: string) => void;

/** The default: standard error, never standard output (where an MCP stdio server speaks). */
export const redisLogToStderr: RedisLog = (level, message) => {
  process.stderr.write(`${level}: ${message}\n`);
};

/** What every replica keeps in its own memory while Redis is away, for the log lines. */
const MEANWHILE =
  "each replica keeps the store (cached results, tokens, counts), its rate limits and breakers in its own memory";

/**
 * Whether Redis answers, as every command of one `redisStore` sees it: the one place that decides
 * the Redis-down rule (commands go to memory while it is down), counts outages for `/health` and
 * metrics, and logs each outage and each recovery once.
 */
export class RedisLink {
  #down = false;
  #since: number | undefined;
  #outages = 0;
  /** Before this time (ms since the epoch) a command goes to memory at once, without trying Redis. */
  #retryAt = 0;

  constructor(
    private readonly log: RedisLog,
    /** How long commands go to memory at once after a failure before one tries Redis again. */
    private readonly retryMs = 1_000,
  ) {}

  /**
   * True when a command should try Redis: it is up, or the pause after its last failure is over (so
   * a Redis that is down or hung costs a call at most one timeout a second per replica).
   */
  get usable(): boolean {
    return !this.#down || Date.now() >= this.#retryAt;
  }

  /** Redis could not be reached (`unreachable`) or a connection to it broke (`lost`). */
  lost(how: "unreachable" | "lost", reason: string): void {
    this.#retryAt = Date.now() + this.retryMs;
    if (this.#down) return;
    this.#down = true;
    this.#since = Date.now();
    this.#outages++;
    this.#write(
      "warning",
      how === "unreachable"
        ? `Redis is unreachable (${reason}): until it is back, ${MEANWHILE}.`
        : `Redis connection lost (${reason}): until it is back, ${MEANWHILE}; the next command connects again.`,
    );
  }

  /** A connection to Redis was made. */
  reached(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#since = Date.now();
    this.#write(
      "info",
      "Redis is reachable again: the store, rate limits and breakers are shared between replicas once more.",
    );
  }

  /** The store's state for `/health` and metrics. */
  status(): StoreStatus {
    return {
      driver: "redis",
      state: this.#down ? "fallback" : "ok",
      since: this.#since,
      outages: this.#outages,
    };
  }

  #write(level: "warning" | "info", message: string): void {
    // A log that fails loses its line, never the command that logged it.
    try {
      this.log(level, message);
    } catch {}
  }
}
