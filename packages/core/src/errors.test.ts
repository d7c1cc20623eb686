import { describe, expect, it } from "vitest";
import { fail, ToolFailure } from "./errors.js";

describe("ToolFailure", () => {
  it("defaults retryable from the kind", () => {
    expect(fail.upstream("502").isRetryable).toBe(true);
    expect(fail.invalidInput("bad").isRetryable).toBe(false);
    expect(ToolFailure.make({ kind: "upstream", message: "x", retryable: false }).isRetryable).toBe(false);
  });
  it("is recognised across copies by its symbol", () => {
    const foreign = { [Symbol.for("@quiver/core/ToolFailure")]: true, kind: "timeout" };
    expect(ToolFailure.isInstance(foreign)).toBe(true);
    expect(ToolFailure.isInstance(new Error("x"))).toBe(false);
  });
});
