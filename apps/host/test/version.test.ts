import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../src/index.js";
import { HOST_DIR } from "./helpers.js";

describe("VERSION", () => {
  it("matches package.json", () => {
    expect(VERSION).toBe(JSON.parse(readFileSync(join(HOST_DIR, "package.json"), "utf8")).version);
  });
});
