import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { countCodeLines } from "./lines/count-code-lines.mjs";
import { measureLines } from "./lines/measure-lines.mjs";
import { countedPackage } from "./lines/source-files.mjs";

// 8 code lines among comments, JSDoc, blank lines and `//` or `/*` inside strings, a template and a
// regular expression.
const FIXTURE = String.raw`#!/usr/bin/env node
// a line comment
/**
 * JSDoc with an @example
 * const x = 1;
 */
export const url = "http://example.com//path"; // a trailing comment

const quoted = '/* not a comment */';
/* a block */ const re = /\/\/not-a-comment/g;
const text = ${"`"}first line
// inside the template ${"$"}{url} /* still the template */
last line${"`"};
/*
const commentedOut = 1;
*/
const half = 1 / 2; /* opens a comment
   that ends here */
type Point = { /** doc */ x: number };
    
`;

describe("countCodeLines", () => {
  it("counts code lines only, whatever a string or template holds", () => {
    expect(countCodeLines(FIXTURE, "fixture.ts")).toBe(8);
  });

  it("counts nothing in a file of comments and blank lines", () => {
    expect(countCodeLines("// one\n\n/* two\n three */\n/** four */\n", "empty.ts")).toBe(0);
  });

  it("reads TSX", () => {
    expect(countCodeLines("// c\nexport const A = () => <div>{/* c */}// text</div>;\n", "a.tsx")).toBe(1);
  });
});

describe("countedPackage", () => {
  it("keeps package sources and leaves tests, helpers and declarations out", () => {
    expect(countedPackage("packages/core/src/runtime/x.ts")).toBe("packages/core");
    expect(countedPackage("packages/plugins/fda/src/index.ts")).toBe("packages/plugins/fda");
    expect(countedPackage("apps/host/src/cli.ts")).toBe("apps/host");
    for (const path of [
      "packages/core/src/x.test.ts",
      "packages/core/src/x.test-d.ts",
      "packages/core/src/http/local-server.test-helpers.ts",
      "packages/core/src/x.d.ts",
      "packages/core/test/x.ts",
      "apps/host/console/src/app.tsx",
      "packages/plugins/src/x.ts",
    ])
      expect(countedPackage(path), path).toBeUndefined();
  });
});

describe("measureLines --base", () => {
  let repo;
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  const write = (path, text) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const git = (...args) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });

  it("counts a git ref without checking it out, and the change per row", () => {
    repo = mkdtempSync(join(tmpdir(), "quiver-weight-test-"));
    git("init", "-q");
    write("packages/core/src/a.ts", "// c\nexport const a = 1;\nexport const b = 2;\n");
    write("packages/plugins/p/src/index.ts", "export const p = 1;\nexport const q = 2;\n");
    write("packages/plugins/p/src/index.test.ts", "export const t = 1;\n");
    git("add", ".");
    git("commit", "-qm", "base");
    write("packages/plugins/p/src/index.ts", "export const p = 1;\n");
    write("packages/plugins/n/src/index.ts", "export const n = 1;\n");

    const { rows } = measureLines(repo, { base: "HEAD", scaffold: false });
    const row = (label) => rows.find((r) => r.label === label);
    expect(row("p")).toMatchObject({ base: 2, lines: 1, change: -50 });
    expect(row("n")).toMatchObject({ base: 0, lines: 1, change: undefined });
    expect(row("plugins (2)")).toMatchObject({ base: 2, lines: 2, change: 0 });
    expect(row("core")).toMatchObject({ base: 2, lines: 2 });
    expect(row("core + plugins")).toMatchObject({ base: 4, lines: 4 });
  });
});
