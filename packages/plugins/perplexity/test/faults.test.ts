import type { ToolResult } from "@quiver/core";
import { describeFaultMatrix, type Emulator, type FaultExpectation, startEmulator } from "@quiver/testing";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { createPerplexityPlugin } from "../src/index.js";
import { UNAVAILABLE_GUIDANCE } from "../src/internal/policy.js";
import { routePerplexity } from "./perplexity-upstream.js";

const KEY = "pplx-test-7f3a9c2e1b4d6f8a";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  routePerplexity(up, KEY);
});
afterEach(() => up.clearFaults());
afterAll(() => up.close());

const failed = (
  status: ToolResult["status"],
  kind: NonNullable<FaultExpectation["kind"]>,
  attempts: number,
  message?: RegExp,
): FaultExpectation => ({ status, kind, attempts, ...(message ? { message } : {}) });

for (const [api, path] of [
  ["search", "/search"],
  ["chat", "/chat/completions"],
] as const) {
  const shared = {
    emulator: () => up,
    plugin: createPerplexityPlugin,
    settings: () => ({ baseUrl: up.url, apiKey: KEY, api }),
    session: { session: { id: "s1", principal: "alice" } },
    // Two quick retries: a retried fault shows as three attempts.
    policy: { timeout: "3s", retry: { times: 2, base: "10ms" } },
    calls: [
      {
        name: `${api} API`,
        method: "POST",
        path,
        tool: "perplexity_search_web",
        input: { query: "What is the current population of San Francisco?" },
      },
    ],
    // Every failure tells the model how to go on without Perplexity; every success cites its sources.
    check: (r: ToolResult) => {
      if (r.status === "success")
        expect((r.data as { citations: string[] }).citations.length).toBeGreaterThan(0);
      else expect(r.guidance).toBe(UNAVAILABLE_GUIDANCE);
    },
  } as const;

  describeFaultMatrix({
    ...shared,
    name: `every fault kind on the ${api} API`,
    faults: {
      delay: { kind: "delay", ms: 200 },
      status: { kind: "status", status: 503 },
    },
    expect: {
      delay: {
        status: "success",
        check: (r) => expect(r.metadata.durationMs).toBeGreaterThanOrEqual(190),
      },
      hang: { status: "timeout", kind: "timeout" },
      slowBody: { status: "success" },
      reset: failed("unavailable", "unavailable", 3),
      status: failed("unavailable", "unavailable", 3, /HTTP 503/),
      invalidJson: failed("error", "upstream", 3, /invalid JSON/),
      htmlError: failed("error", "upstream", 1, /HTML page/),
      oversized: failed("error", "upstream", 1, /larger than/),
      wrongContentType: { status: "success" },
    },
  });

  describeFaultMatrix({
    ...shared,
    name: `more variants on the ${api} API: a reset mid-body, a 429 past the budget`,
    kinds: ["reset", "status"],
    faults: {
      reset: { kind: "reset", phase: "midBody" },
      status: { kind: "status", status: 429, retryAfter: 120 },
    },
    expect: {
      reset: failed("unavailable", "unavailable", 3),
      status: failed("error", "rate_limited", 1),
    },
  });
}
