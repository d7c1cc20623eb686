import { describe, expect, it } from "vitest";
import { scrub } from "./redact.js";

describe("scrub", () => {
  const secrets = ["redis://:pw@h:1", "pw"];

  it("masks secrets in strings and arrays", () => {
    expect(scrub("failed on redis://:pw@h:1 with pw", secrets)).toBe("failed on <redacted> with <redacted>");
    expect(scrub(["a pw", 3], secrets)).toEqual(["a <redacted>", 3]);
  });

  it("copies an Error whose message or stack holds a secret, and leaves others as they are", () => {
    const leaky = new TypeError("bad pw");
    const copy = scrub(leaky, secrets) as Error;
    expect(copy).not.toBe(leaky);
    expect(copy.name).toBe("TypeError");
    expect(copy.message).toBe("bad <redacted>");
    expect(copy.stack).not.toContain("pw");
    const clean = new Error("connection refused");
    expect(scrub(clean, secrets)).toBe(clean);
  });

  it("does nothing without secrets", () => {
    expect(scrub("anything", [])).toBe("anything");
  });
});
