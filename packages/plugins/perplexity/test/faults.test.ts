import type { ToolResult } from "@quiver/core";
import {
  describeFaultMatrix,
  MATRIX_EXPECTATIONS,
  startEmulator,
  usePluginOnEmulator,
  withAttempts,
} from "@quiver/testing";
import { expect } from "vitest";
import { createPerplexityPlugin } from "../src/index.js";
import { UNAVAILABLE_GUIDANCE } from "../src/internal/policy.js";
import { routePerplexity } from "./perplexity-upstream.js";

const KEY = "pplx-test-7f3a9c2e1b4d6f8a";

/** The Perplexity emulator: started before the file's tests, faults cleared after each, closed after the last. */
const { up } = usePluginOnEmulator({
  plugin: createPerplexityPlugin,
  start: async () => {
    const up = await startEmulator();
    routePerplexity(up, KEY);
    return up;
  },
});

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
    // The shared expectations, with the attempts two retries make.
    expect: {
      ...withAttempts(MATRIX_EXPECTATIONS, 2),
      delay: { status: "success", check: (r) => expect(r.metadata.durationMs).toBeGreaterThanOrEqual(190) },
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
      reset: { status: "unavailable", kind: "unavailable", attempts: 3 },
      status: { status: "error", kind: "rate_limited", attempts: 1 },
    },
  });
}
