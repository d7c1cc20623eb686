import {
  type AnyPlugin,
  type CallOptions,
  createCatalog,
  type ErrorKind,
  type ToolResult,
} from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../emulator/start-emulator.js";
import { makeTestClock } from "../test-clock.js";

/** The upstream a stale-fallback suite runs against, started once for the suite. */
export interface StaleUpstream {
  /** The emulator the plugin calls: the suite makes it answer 503 to everything. */
  readonly up: Emulator;
  /** The plugin's settings pointing at it (`{ baseUrl: up.url }`). */
  readonly options: Readonly<Record<string, unknown>>;
  /** The catalog's environment (an API key the emulator checks); default `{}`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Stops what `start` opened besides the emulator (default: closes `up`). */
  readonly close?: () => Promise<void>;
}

/** What `describeStaleFallback` runs. */
export interface StaleFallbackOptions {
  /** The upstream's name in the suite's title ("openFDA", "Context7"). */
  readonly upstream: string;
  /** Makes the plugin under test. */
  readonly plugin: () => AnyPlugin;
  /** Starts the upstream emulator and says how to reach it. */
  readonly start: () => Promise<StaleUpstream>;
  /** The cached tool whose last good answer is given back while the upstream is down. */
  readonly tool: string;
  readonly input: unknown;
  /** How long after the good answer the upstream goes down: past the tool's cache lifetime. */
  readonly afterMs: number;
  /** The error kind the envelope carries for the upstream's 503 (any error when omitted). */
  readonly errorKind?: ErrorKind;
  /** A question never answered before: it has nothing stale to give (its status is `errorKind`). */
  readonly unansweredInput?: unknown;
  /**
   * For a tool where a last good answer is no answer (fresh questions each time): the suite then asserts that
   * the tool declares no stale fallback and that a call while the upstream is down answers `status` with no
   * stale data, instead of the stale answer.
   */
  readonly noStale?: NoStaleFallback;
}

/** Why a tool keeps no last good answer, and what a call answers while its upstream is down. */
export interface NoStaleFallback {
  /** Why a stale answer would be wrong for this tool (the test's title says it). */
  readonly reason: string;
  /** The status of a call while the upstream answers 503: an error status, or `partial` for a fallback of its own. */
  readonly status: ToolResult["status"];
  /** What the failed call's message says (that the upstream failed, in the tool's words). */
  readonly message?: RegExp;
}

const alice: CallOptions = { session: { id: "s1", principal: "alice" } };
const bob: CallOptions = { session: { id: "s2", principal: "bob" } };

/**
 * The stale fallback every network plugin offers, on a test clock: a good answer, then (past the
 * cache's lifetime) an upstream that answers 503 to everything. The same caller gets the last good
 * answer as `partial`, marked stale with its age and carrying the error; another caller, and a
 * question never answered, get no stale data. With `noStale`, for a tool whose last answer must not stand in
 * for a new one, it asserts the opposite: no stale fallback declared, and a failed call that says so.
 *
 * @example
 * describeStaleFallback({
 *   upstream: "openFDA",
 *   plugin: createFdaPlugin,
 *   start: async () => { const up = await startOpenFda(); return { up, options: { baseUrl: up.url } } },
 *   tool: "fda_search_drugs",
 *   input: { search_criteria: { active_ingredient: "semaglutide" } },
 *   afterMs: 2 * 3_600_000,
 *   errorKind: "unavailable",
 * })
 */
export const describeStaleFallback = (options: StaleFallbackOptions): void => {
  let upstream: StaleUpstream;
  beforeAll(async () => {
    upstream = await options.start();
  });
  afterAll(async () => {
    await (upstream?.close ? upstream.close() : upstream?.up.close());
  });

  /**
   * A catalog on a test clock that has the good answer for `alice`, then an upstream that answers 503 to
   * everything from `afterMs` later on; `check` gets the good answer and a way to call on the moved clock.
   */
  const whileDown = async (
    check: (
      fresh: ToolResult,
      call: (input: unknown, as: CallOptions) => Promise<ToolResult>,
    ) => Promise<void>,
    declares: (stale: boolean) => void,
  ) => {
    const time = await makeTestClock();
    const catalog = createCatalog({ env: { ...upstream.env }, clock: time.clock });
    catalog.register(options.plugin(), { ...upstream.options });
    const call = (input: unknown, callOptions: CallOptions) =>
      time.advanceUntil(catalog.call(options.tool, input, callOptions), 100);
    try {
      declares(Boolean(catalog.describe(options.tool)?.policy.fallback?.stale));
      // The good answer on the running clock (real replies; no policy waits on time here).
      const fresh = await catalog.call(options.tool, options.input, alice);
      expect(fresh.status, fresh.message).toBe("success");
      upstream.up.fault("*", /.*/, { kind: "status", status: 503 });
      await time.advance(options.afterMs);
      await check(fresh, call);
    } finally {
      upstream.up.clearFaults();
      await catalog.close();
    }
  };

  const noStale = options.noStale;
  if (noStale) {
    describe(`no stale results from ${options.tool} while ${options.upstream} is down`, () => {
      it(`declares no stale fallback (${noStale.reason}); a failed call answers ${noStale.status}, not the last answer`, async () => {
        await whileDown(
          async (fresh, call) => {
            const r = await call(options.input, alice);
            expect(r.status, r.message).toBe(noStale.status);
            expect(r.metadata.stale).toBeUndefined();
            expect(r.message).not.toMatch(/last known result/);
            if (noStale.message) expect(r.message).toMatch(noStale.message);
            expect(r.data).not.toEqual(fresh.data);
            if (noStale.status !== "partial") {
              expect(r.error).toBeDefined();
              if (options.errorKind) expect(r.error?.kind).toBe(options.errorKind);
            }
          },
          (stale) => expect(stale, `${options.tool} declares fallback.stale`).toBe(false),
        );
      });
    });
    return;
  }

  describe(`stale results while ${options.upstream} is down`, () => {
    it("answers partial with the last good result, marked stale with its age; nothing stale for others", async () => {
      await whileDown(
        async (fresh, call) => {
          const r = await call(options.input, alice);
          expect(r.status, r.message).toBe("partial");
          expect(r.data).toEqual(fresh.data);
          expect(r.metadata.stale).toBe(true);
          expect(r.metadata.staleAgeMs).toBeGreaterThanOrEqual(options.afterMs);
          expect(r.error).toBeDefined();
          if (options.errorKind) expect(r.error?.kind).toBe(options.errorKind);
          expect(r.message).toMatch(/last known result/);
          // Another caller never got an answer: nothing stale for them.
          const other = await call(options.input, bob);
          expect(other.status).not.toBe("partial");
          expect(other.metadata.stale).toBeUndefined();
          if (options.unansweredInput !== undefined) {
            const unanswered = await call(options.unansweredInput, alice);
            if (options.errorKind) {
              expect(unanswered.status).toBe(options.errorKind);
              expect(unanswered.error?.kind).toBe(options.errorKind);
            } else expect(unanswered.status).not.toBe("partial");
            expect(unanswered.metadata.stale).toBeUndefined();
          }
        },
        (stale) => expect(stale, `${options.tool} declares fallback.stale`).toBe(true),
      );
    });
  });
};
