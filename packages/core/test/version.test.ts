import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VERSION } from "../src/index.js";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("VERSION", () => {
  it("is the version in package.json, read at run time (from src/)", () => {
    expect(VERSION).toBe(manifest.version);
  });

  it("is the version in package.json from the built dist/ too", async () => {
    const built = (await import(/* @vite-ignore */ new URL("../dist/index.js", import.meta.url).href)) as {
      VERSION: string;
    };
    expect(built.VERSION).toBe(manifest.version);
  });
});
