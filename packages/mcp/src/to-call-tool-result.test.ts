import type { ToolResult } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { summarise, toCallToolResult } from "./to-call-tool-result.js";

const metadata = {
  tool: "t",
  plugin: "p",
  callId: "c",
  durationMs: 1,
  attempts: 1,
  cached: false,
  truncated: false,
};

describe("toCallToolResult", () => {
  it("puts the envelope in structuredContent, the summary and data in text, isError false on success", () => {
    const r: ToolResult = {
      status: "success",
      message: "Found 2.",
      data: { n: 2 },
      instruction: "Cite them.",
      metadata,
    };
    const out = toCallToolResult(r);
    expect(out.isError).toBe(false);
    expect(out.structuredContent).toEqual(r);
    expect(out.content).toEqual([
      { type: "text", text: "Found 2.\nInstruction: Cite them." },
      { type: "text", text: '{"n":2}' },
    ]);
    expect(toCallToolResult(r, "summary").content).toHaveLength(1);
  });

  it.each(["partial", "error", "timeout", "access_denied", "unavailable"] as const)(
    "sets isError for status %s",
    (status) => {
      const r: ToolResult = { status, message: "m", metadata };
      expect(toCallToolResult(r).isError).toBe(true);
    },
  );

  it("names the status and the next step for a failure", () => {
    const r: ToolResult = {
      status: "unavailable",
      message: "X is not configured.",
      error: { kind: "unavailable", message: "X is not configured.", retryable: false },
      suggestion: "Set X_API_KEY.",
      guidance: "Answer from your own knowledge.",
      metadata,
    };
    expect(summarise(r)).toBe(
      "[unavailable] X is not configured.\nSuggestion: Set X_API_KEY.\nGuidance: Answer from your own knowledge.",
    );
  });

  it("shows the confirmation token of a destructive tool's preview", () => {
    const r: ToolResult = {
      status: "partial",
      message: "Confirmation needed.",
      data: { deletes: 3 },
      confirmation: { token: "tok-1", expiresAt: "2030-01-01T00:00:00.000Z", preview: { deletes: 3 } },
      metadata,
    };
    expect(summarise(r)).toContain("confirmation_token: tok-1");
  });
});
