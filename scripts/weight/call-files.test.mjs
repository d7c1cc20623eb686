import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { connectCdp } from "./call-files/cdp-client.mjs";
import { mapToSources } from "./call-files/map-to-sources.mjs";
import { groupOf, packageOf } from "./call-files/source-packages.mjs";

let dir;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A package `pkg` in `dir` with src/greet.ts built to dist/index.js and its source map by tsc. */
const buildPackage = () => {
  dir = mkdtempSync(join(tmpdir(), "quiver-weight-map-"));
  const pkg = join(dir, "pkg");
  mkdirSync(join(pkg, "src"), { recursive: true });
  mkdirSync(join(pkg, "dist"));
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@quiver/core" }));
  const source = [
    "// a comment",
    "export function greet(name: string): string {",
    '  return "hi " + name;',
    "}",
    "",
  ].join("\n");
  writeFileSync(join(pkg, "src", "greet.ts"), source);
  const out = ts.transpileModule(source, {
    fileName: "greet.ts",
    compilerOptions: { sourceMap: true, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  writeFileSync(
    join(pkg, "dist", "index.js"),
    out.outputText.replace(/sourceMappingURL=\S+/, "sourceMappingURL=index.js.map"),
  );
  // As tsc with rootDir src and outDir dist writes it: the source relative to the map.
  const map = { ...JSON.parse(out.sourceMapText), sources: ["../src/greet.ts"] };
  writeFileSync(join(pkg, "dist", "index.js.map"), JSON.stringify(map));
  return { pkg, js: out.outputText };
};

describe("mapToSources", () => {
  it("maps a covered function of a built file to its source and package", () => {
    const { pkg, js } = buildPackage();
    const url = pathToFileURL(join(pkg, "dist", "index.js")).href;
    const fn = { url, name: "greet", start: js.indexOf("function greet") };
    const outside = { url: "node:internal/x", name: "x", start: 0 };
    const { mapped, unmapped } = mapToSources([fn, outside], dir);
    expect(unmapped).toEqual([]);
    expect(mapped).toHaveLength(1);
    expect(mapped[0]).toMatchObject({ source: join(pkg, "src", "greet.ts"), line: 2 });
    expect(packageOf(mapped[0].source)).toBe("@quiver/core");
    expect(groupOf("@quiver/core", "@quiver/plugin-fda")).toBe("core");
    expect(groupOf("@quiver/mcp", "@quiver/plugin-fda")).toBe("host+mcp");
  });
});

describe("connectCdp", () => {
  it("sends commands to a real inspector and reads their results", async () => {
    dir = mkdtempSync(join(tmpdir(), "quiver-weight-cdp-"));
    const child = spawn(process.execPath, ["--inspect=127.0.0.1:0", "-e", "setInterval(() => {}, 1000)"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      const url = await new Promise((resolve, reject) => {
        let text = "";
        child.stderr.on("data", (d) => {
          text += d;
          const m = /Debugger listening on (ws:\/\/\S+)/.exec(text);
          if (m) resolve(m[1]);
        });
        child.on("close", (code) => reject(new Error(`node exited with ${code}: ${text}`)));
      });
      const cdp = await connectCdp(url);
      const { result } = await cdp.send("Runtime.evaluate", { expression: "6 * 7" });
      expect(result.value).toBe(42);
      await expect(cdp.send("No.suchMethod")).rejects.toThrow(/No\.suchMethod/);
      cdp.close();
    } finally {
      child.kill();
    }
  });
});
