import type { ToolResult } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { isPlainJson, summarise, toCallToolResult } from "./to-call-tool-result.js";

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

  it("follows the text with the media parts of metadata.content as MCP blocks", () => {
    const image = { type: "image", data: "iVBOR", mimeType: "image/png" } as const;
    const resource = {
      type: "resource",
      resource: { uri: "test://r", mimeType: "text/plain", text: "hi" },
    } as const;
    const r: ToolResult = {
      status: "success",
      message: "Two parts.",
      metadata: { ...metadata, content: [image, resource] },
    };
    expect(toCallToolResult(r).content).toEqual([{ type: "text", text: "Two parts." }, image, resource]);
  });

  it("does not set isError for a partial: an answer with caveats", () => {
    const r: ToolResult = { status: "partial", message: "m", data: { a: 1 }, metadata };
    expect(toCallToolResult(r).isError).toBe(false);
  });

  it.each(["error", "timeout", "access_denied", "unavailable"] as const)(
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

describe("structuredContent without a copy", () => {
  it("is the envelope itself when it is plain JSON", () => {
    const r: ToolResult = { status: "success", message: "ok", data: { a: [1, "x", null, true] }, metadata };
    expect(toCallToolResult(r).structuredContent).toBe(r);
  });

  it("is a JSON copy when the envelope holds what JSON would change", () => {
    const when = new Date("2030-01-01T00:00:00.000Z");
    const r = { status: "success", message: "ok", data: { when, gone: undefined, n: Number.NaN }, metadata };
    const out = toCallToolResult(r as ToolResult).structuredContent;
    expect(out).not.toBe(r);
    expect(out.data).toEqual({ when: "2030-01-01T00:00:00.000Z", n: null });
  });

  it("tells plain JSON apart", () => {
    expect(isPlainJson({ a: [1, { b: "c" }], d: null, e: false })).toBe(true);
    expect(isPlainJson(Object.create(null))).toBe(true);
    for (const odd of [
      undefined,
      Number.POSITIVE_INFINITY,
      1n,
      () => 1,
      new Map(),
      new (class X {})(),
      { toJSON: () => 1 },
    ]) {
      expect(isPlainJson({ v: odd })).toBe(false);
    }
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 300; i++) {
      const next: Record<string, unknown> = {};
      at.next = next;
      at = next;
    }
    expect(isPlainJson(deep)).toBe(false);
  });
});
