import { readFileSync } from "node:fs";
import { isPlugin } from "@quiver/core";
import { describe, expect, it } from "vitest";
import plugin, { createPerplexityPlugin, VERSION } from "../src/index.js";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

describe("package shape", () => {
  it("keeps VERSION, the plugin version and package.json in step", () => {
    expect(VERSION).toBe(pkg.version);
    expect(plugin.version).toBe(pkg.version);
  });

  it("declares itself to hosts: keyword, quiver.plugin entry, exports with types first and internals blocked", () => {
    expect(pkg.name).toBe("@quiver/plugin-perplexity");
    expect(pkg.keywords).toContain("quiver-plugin");
    expect(pkg.quiver).toEqual({ plugin: "./dist/index.js" });
    expect(Object.keys(pkg.exports["."])[0]).toBe("types");
    expect(pkg.exports["./internal/*"]).toBeNull();
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.type).toBe("module");
  });

  it("exports a default plugin instance and a factory", () => {
    expect(isPlugin(plugin)).toBe(true);
    expect(plugin.id).toBe("perplexity");
    expect(isPlugin(createPerplexityPlugin())).toBe(true);
  });
});
