import { expect, it } from "vitest";
import { CommandUsageError } from "./index.js";

it("CommandUsageError.isInstance knows its own errors and those of another copy of core", () => {
  expect(CommandUsageError.isInstance(new CommandUsageError("bad", "hint"))).toBe(true);
  // What a second copy of @quiver/core makes: another class, the same registered mark.
  const foreign = Object.assign(new Error("bad"), { [Symbol.for("@quiver/core/CommandUsageError")]: true });
  expect(CommandUsageError.isInstance(foreign)).toBe(true);
});

it("CommandUsageError.isInstance refuses any other error, whatever its name", () => {
  const named = Object.assign(new Error("bad"), { name: "CommandUsageError" });
  expect(CommandUsageError.isInstance(named)).toBe(false);
  expect(CommandUsageError.isInstance(new Error("bad"))).toBe(false);
  expect(CommandUsageError.isInstance("CommandUsageError")).toBe(false);
  expect(CommandUsageError.isInstance(null)).toBe(false);
});
