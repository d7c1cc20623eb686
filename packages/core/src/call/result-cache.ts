import { randomBytes } from "node:crypto";
import * as Exit from "effect/Exit";
import { LRUCache } from "lru-cache";
import type { ToolFailure } from "../errors.js";
import type { PolicyClock } from "../policies/policy-clock.js";
import { fromStoredJson, type StoreDriver } from "../store/store-driver.js";
import type { RunOutput } from "./run-tool.js";

/** What a tool's result cache is made of. */
export interface ResultCacheOptions {
  /** How long a result is served (the cache policy's time to live). */
  readonly ttlMs: number;
  /** Most results this process keeps in front of the store. */
  readonly capacity: number;
  readonly clock: PolicyClock;
  /** The catalog's store: results of every process on it, and the leases of their runs in flight. */
  readonly store: StoreDriver;
  /** Longest one run holds the lease that keeps the other processes waiting for its result. */
  readonly leaseMs: number;
  /** Replaces the plugin's secrets in a value before it is stored. */
  readonly redact: (json: string) => string;
}

/** How a cached tool's call ended, and whether it ran here (`miss`) or was answered (`hit`). */
export interface CacheAnswer {
  readonly exit: Exit.Exit<RunOutput, ToolFailure>;
  readonly cache: "hit" | "miss";
}

/** An answer with the time to live left, for an entry another process stored. */
type StoreAnswer = CacheAnswer & { readonly ttl?: number | undefined };

/** A stored entry: the result and when it expires (milliseconds since the epoch). */
type StoredEntry = { readonly executed: RunOutput; readonly expiresAt: number };

/** Longest value written to the store (characters of JSON); a larger result stays in this process. */
const MAX_STORED_CHARS = 1_000_000;
/** How often a process that found another's run in flight looks for its result. */
const POLL_MS = 25;
/** What a key holds while a run has its lease (never JSON: no entry starts so). */
const LEASE = "lease ";
/** This process's part of a lease holder's name; a counter makes each run's unique. */
const PROCESS = randomBytes(9).toString("base64url");
let runs = 0;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a call that was waiting for another's run gets when its own caller aborts. */
const STOPPED: CacheAnswer = { exit: Exit.interrupt(), cache: "hit" };

/** The joined run's answer, as a hit, or {@link STOPPED} as soon as the joiner's own signal aborts. */
const joined = (running: Promise<CacheAnswer>, signal: AbortSignal | undefined): Promise<CacheAnswer> => {
  const answer = running.then(({ exit }): CacheAnswer => ({ exit, cache: "hit" }));
  if (signal === undefined) return answer;
  if (signal.aborted) return Promise.resolve(STOPPED);
  return new Promise((resolve) => {
    const stop = () => resolve(STOPPED);
    signal.addEventListener("abort", stop, { once: true });
    void answer.then((a) => {
      signal.removeEventListener("abort", stop);
      resolve(a);
    });
  });
};

/**
 * The cache step: a tool's successful results by cache id (tool, caller, canonical input) for the
 * policy's time to live, identical calls coalesced into one run. Plain promises, outside Effect: the
 * run it is given is the call's one Effect fiber.
 *
 * One path: this process keeps up to `capacity` results in front (`lru-cache`, O(1) at any size), so
 * a local hit never asks the store; a local miss joins the same call in flight here, else looks in
 * the catalog's store (what any process on it stored), else runs under a lease (the store's
 * compare-and-set on the entry's key) while the other processes wait for its result, and stores the
 * result (redacted) before it answers.
 */
export class ResultCache {
  readonly #kept: LRUCache<string, RunOutput>;
  readonly #inflight = new Map<string, Promise<CacheAnswer>>();

  constructor(private readonly options: ResultCacheOptions) {
    // ttlResolution 0: read the clock on every check (lru-cache otherwise keeps a "now" for 1 ms of real
    // time, which an injected test clock would not move). Ages are intervals: the monotonic clock.
    this.#kept = new LRUCache<string, RunOutput>({
      max: options.capacity,
      ttl: options.ttlMs,
      ttlResolution: 0,
      perf: { now: options.clock.monotonic },
    });
  }

  /**
   * The answer for `id`: kept here (at once, no promise), joined from the same call in flight, found
   * in the store, or run (`run` is called at most once) and kept when it succeeds. `startedAt` (the
   * clock's monotonic time) is when the call started: a result is as old as the request that got it.
   * A call waiting for another's run stops waiting when its own `signal` aborts (its exit is then
   * an interruption), and the run goes on for the others.
   */
  through(
    id: string,
    startedAt: number,
    run: () => Promise<Exit.Exit<RunOutput, ToolFailure>>,
    signal?: AbortSignal,
  ): CacheAnswer | Promise<CacheAnswer> {
    const kept = this.#kept.get(id);
    if (kept !== undefined) return { exit: Exit.succeed(kept), cache: "hit" };
    const running = this.#inflight.get(id);
    if (running) return joined(running, signal);
    const answer = this.#throughStore(id, run, signal).then((found) => {
      this.#inflight.delete(id);
      // Kept for the rest of its time to live: from the call's start, or what the store's entry has left.
      const age = found.ttl === undefined ? { start: startedAt } : { ttl: found.ttl };
      if (Exit.isSuccess(found.exit)) this.#kept.set(id, found.exit.value, age);
      return { exit: found.exit, cache: found.cache };
    });
    this.#inflight.set(id, answer);
    return answer;
  }

  /**
   * A local miss: another process's stored result, or a run under the lease. The lease is the
   * entry's own key holding `lease <holder>` until the result replaces it: one key per result, and
   * nothing to give back after a run that stored its result.
   */
  async #throughStore(
    id: string,
    run: () => Promise<Exit.Exit<RunOutput, ToolFailure>>,
    signal: AbortSignal | undefined,
  ): Promise<StoreAnswer> {
    const { store, leaseMs } = this.options;
    const key = `cache:${store.key(id)}`;
    const holder = `${LEASE}${PROCESS}:${runs++}`;
    // The usual miss is an empty key: taking the lease is the one store request before the run.
    let leased = await store.compareAndSet(key, undefined, holder, leaseMs);
    if (!leased) {
      const text = await store.get(key);
      const found = this.#entry(text);
      if (found) return found;
      // An entry past its time, or a lease just given back: replaced by this run's lease.
      leased = !text?.startsWith(LEASE) && (await store.compareAndSet(key, text, holder, leaseMs));
    }
    if (!leased) {
      // Another process runs it: its result, once stored, or this process runs it when the lease ends.
      const other = await this.#await(key, signal);
      if (signal?.aborted) return STOPPED;
      if (other) return other;
    }
    const exit = await run();
    const stored = Exit.isSuccess(exit) && (await this.#write(key, exit.value));
    if (leased && !stored) await store.compareAndSet(key, holder, undefined, leaseMs);
    return { exit, cache: "miss" };
  }

  /** The stored entry for `key`, if any and not expired by the clock, as a hit. */
  #entry(text: string | undefined): StoreAnswer | undefined {
    const entry = text?.startsWith(LEASE) ? undefined : fromStoredJson<StoredEntry>(text);
    if (!entry) return undefined;
    const ttl = entry.expiresAt - this.options.clock.now();
    if (!(ttl > 0)) return undefined;
    return { exit: Exit.succeed(entry.executed), cache: "hit", ttl: Math.min(ttl, this.options.ttlMs) };
  }

  /**
   * Looks for the result of another process's run until its lease would have run out. A plain
   * polling loop rather than effect's Schedule: the cache step runs outside Effect (plain promises,
   * so a local hit costs no fiber), and this wait happens only while another replica holds the lease.
   */
  async #await(key: string, signal: AbortSignal | undefined): Promise<StoreAnswer | undefined> {
    const until = Date.now() + this.options.leaseMs;
    while (Date.now() < until && !signal?.aborted) {
      await pause(POLL_MS);
      const found = this.#entry(await this.options.store.get(key));
      if (found) return found;
    }
    return undefined;
  }

  /** Writes a result to the store, redacted; false for one not JSON or too large (kept here only). */
  async #write(key: string, executed: RunOutput): Promise<boolean> {
    const { store, ttlMs, clock, redact } = this.options;
    let text: string;
    try {
      text = redact(JSON.stringify({ executed, expiresAt: clock.now() + ttlMs } satisfies StoredEntry));
    } catch {
      return false; // not JSON (a BigInt, a cycle): kept in this process only
    }
    if (text.length > MAX_STORED_CHARS) return false;
    await store.set(key, text, ttlMs);
    return true;
  }
}
