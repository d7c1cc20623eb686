import type { ToolResult } from "@quiver/core";
import {
  describeFaultMatrix,
  type FaultMatrixCall,
  MATRIX_EXPECTATIONS,
  withAttempts,
} from "@quiver/testing";
import { expect } from "vitest";
import { createContext7Plugin } from "../src/index.js";
import { UNAVAILABLE_GUIDANCE } from "../src/internal/policy.js";
import { useContext7Emulator } from "./context7-emulator.js";

const emu = useContext7Emulator();

/** Both upstream paths: the library search and the documentation. */
const CALLS: ReadonlyArray<FaultMatrixCall> = [
  {
    name: "search",
    method: "GET",
    path: "/api/v2/libs/search",
    tool: "context7_resolve_library_id",
    input: { library_name: "next.js", query: "middleware" },
  },
  {
    name: "context",
    method: "GET",
    path: "/api/v2/context",
    tool: "context7_get_library_docs",
    input: { library_id: "/vercel/next.js", query: "middleware" },
  },
];

const shared = {
  emulator: () => emu.up,
  plugin: createContext7Plugin,
  settings: () => ({ baseUrl: `${emu.up.url}/api` }),
  session: { session: { id: "s1", principal: "alice" } },
  // Two quick retries: a retried fault shows as three attempts.
  policy: { timeout: "3s", retry: { times: 2, base: "10ms" } },
  calls: CALLS,
  // Every failure tells the model how to go on without Context7; every success carries data.
  check: (r: ToolResult) => {
    if (r.status === "success") expect(r.data).toBeTruthy();
    else expect(r.guidance).toBe(UNAVAILABLE_GUIDANCE);
  },
} as const;

describeFaultMatrix({
  ...shared,
  name: "every fault kind on both upstream paths",
  faults: {
    delay: { kind: "delay", ms: 200 },
    status: { kind: "status", status: 500 },
  },
  expect: {
    ...withAttempts(MATRIX_EXPECTATIONS, 2),
    delay: { status: "success", check: (r) => expect(r.metadata.durationMs).toBeGreaterThanOrEqual(190) },
    reset: { ...MATRIX_EXPECTATIONS.reset, attempts: 3, message: /closed the connection/ },
    status: { ...MATRIX_EXPECTATIONS.status, attempts: 3, message: /HTTP 500/ },
  },
});

describeFaultMatrix({
  ...shared,
  name: "more variants: a reset mid-body, a 429 past the budget, a 502 HTML page",
  kinds: ["reset", "status", "htmlError"],
  faults: {
    reset: { kind: "reset", phase: "midBody" },
    status: { kind: "status", status: 429, retryAfter: 60 },
    htmlError: { kind: "htmlError", status: 502 },
  },
  expect: {
    reset: { status: "unavailable", kind: "unavailable", attempts: 3 },
    status: { status: "error", kind: "rate_limited", attempts: 1 },
    htmlError: { status: "unavailable", kind: "unavailable", attempts: 3 },
  },
});
