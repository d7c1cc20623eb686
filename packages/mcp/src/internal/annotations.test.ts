import { describe, expect, it } from "vitest";
import { fromMcpAnnotations, toMcpAnnotations } from "./annotations.js";

describe("annotations", () => {
  it("states every MCP hint explicitly for a Quiver tool", () => {
    expect(toMcpAnnotations({}, undefined)).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(toMcpAnnotations({ readOnly: true, openWorld: true }, "Search")).toEqual({
      title: "Search",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(toMcpAnnotations({ destructive: true, idempotent: true }, undefined)).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
    });
  });

  it("maps remote hints to Quiver annotations: destructive only when said, always open-world", () => {
    expect(fromMcpAnnotations(undefined)).toEqual({
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: true,
    });
    expect(fromMcpAnnotations({ readOnlyHint: true, destructiveHint: true })).toMatchObject({
      readOnly: true,
      destructive: false,
      idempotent: true,
    });
    expect(fromMcpAnnotations({ destructiveHint: true, title: "Delete" })).toMatchObject({
      destructive: true,
      title: "Delete",
    });
  });
});
