import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { classify, extractBlocks } from "../../../scripts/readme-commands/extract.mjs";

// The extraction behind `./dev test:readme` (scripts/readme-commands.mjs), which runs the READMEs'
// commands in a fresh clone; here only what it reads from the READMEs, in milliseconds.
const root = resolve(import.meta.dirname, "../../..");
const fence = "```";

describe("README command extraction", () => {
  it("reads bash blocks, joins continued lines, drops comments and applies skip markers", () => {
    const text = [
      "<!-- readme-commands: quiver=./dev quiver -->",
      `${fence}ts`,
      "const notShell = 1;",
      fence,
      '<!-- readme-commands: skip-line "npm test" your own tests -->',
      `${fence}bash`,
      "# a comment",
      "FOO=1 \\",
      "  quiver serve --port 8080",
      "npm test",
      fence,
      "<!-- readme-commands: skip needs a key -->",
      `${fence}sh`,
      "curl -s localhost:7333/tools",
      fence,
    ].join("\n");
    const { quiver, blocks } = extractBlocks(text);
    expect(quiver).toBe("./dev quiver");
    expect(blocks).toEqual([
      {
        line: 6,
        commands: [
          { line: 8, text: "FOO=1  quiver serve --port 8080" },
          { line: 10, text: "npm test", skip: "your own tests" },
        ],
      },
      { line: 13, skip: "needs a key", commands: [{ line: 14, text: "curl -s localhost:7333/tools" }] },
    ]);
  });

  it("refuses an unknown marker rather than running what it meant to skip", () => {
    expect(() => extractBlocks("<!-- readme-commands: skipp typo -->\n")).toThrow(
      /unknown readme-commands marker/,
    );
  });

  it("classifies servers (with their port), JSON commands and plain commands", () => {
    expect(classify("./dev start")).toEqual({ kind: "server", command: "./dev start", port: 7333 });
    expect(classify("PERPLEXITY_API_KEY=… quiver serve --port 8080")).toMatchObject({
      kind: "server",
      port: 8080,
    });
    expect(classify("OPENFDA_API_KEY=x ./dev quiver serve --replay t &")).toMatchObject({
      kind: "server",
      command: "OPENFDA_API_KEY=x ./dev quiver serve --replay t",
    });
    expect(classify("quiver serve --stdio")).toMatchObject({ kind: "command" });
    expect(classify("./dev quiver list --json")).toMatchObject({ kind: "command", json: true });
    expect(classify("quiver doctor --json | jq .plugins")).toMatchObject({
      kind: "command",
      json: false,
      producer: "quiver doctor --json",
    });
    expect(classify("curl -s -X POST localhost:7333/tools/x/call -d '{}'")).toMatchObject({ json: true });
    expect(classify("curl -s localhost:7333/tools | head -c 400")).toMatchObject({ json: false });
  });

  it("reads every README that the clone run covers, and each has a command it runs", () => {
    const examples = readdirSync(join(root, "examples")).map((name) => join("examples", name, "README.md"));
    for (const readme of ["README.md", "apps/host/README.md", "examples/custom-host/README.md"]) {
      const { blocks } = extractBlocks(readFileSync(join(root, readme), "utf8"));
      const run = blocks.filter((b) => !b.skip).flatMap((b) => b.commands.filter((c) => !c.skip));
      expect(run.length, readme).toBeGreaterThan(0);
    }
    for (const readme of examples)
      expect(() => extractBlocks(readFileSync(join(root, readme), "utf8"))).not.toThrow();
  });
});
