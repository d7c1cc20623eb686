// The plugin scaffold (scripts/create-plugin.mjs), run as a contributor runs it: `pnpm create-plugin
// demo-x` into a temporary repository, then the generated package's own test (describePluginPackage
// and describePluginConformance against its emulator) and its typecheck, unchanged, in child processes.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
/** A plugin whose installed devDependencies are the template's: the generated package borrows them. */
const SIBLING = join(REPO, "packages/plugins/perplexity");

const root = mkdtempSync(join(tmpdir(), "quiver-create-plugin-"));
const dir = join(root, "packages/plugins/demo-x");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Lines of TypeScript holding code: neither blank nor only a comment (JSDoc included). */
const codeLines = (text: string): number => {
  const file = ts.createSourceFile("f.ts", text, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isJSDoc(node)) return;
    const children = node.getChildren(file);
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
    const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
    const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
    for (let line = first; line <= last; line++) lines.add(line);
  };
  visit(file);
  return lines.size;
};

const tsFiles = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.startsWith("node_modules"))
    .map((f) => join(folder, f));

const run = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });

describe("pnpm create-plugin demo-x", () => {
  it("writes the canonical shape: index, config with each setting's variable and z.output, one tool file, internal/, test, README, changeset", () => {
    const made = run("pnpm", ["--silent", "create-plugin", "demo-x", "--root", root], REPO);
    expect(made.status, made.stderr).toBe(0);
    for (const file of [
      "package.json",
      "README.md",
      "LICENSE",
      "src/index.ts",
      "src/config.ts",
      "src/tools/get-item.ts",
      "src/internal/upstream.ts",
      "test/demo-x.test.ts",
    ])
      expect(existsSync(join(dir, file)), file).toBe(true);
    const config = readFileSync(join(dir, "src/config.ts"), "utf8");
    expect(config).toContain("export type DemoXConfig = z.output<typeof demo_xConfigSchema>;");
    expect(config).toContain('secret({ env: "DEMO_X_API_KEY" })');
    expect(config).toContain('env: "DEMO_X_BASE_URL"');
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.exports["./internal/*"]).toBeNull();
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    for (const section of ["## Install", "## Usage", "## Options", "## Tools"])
      expect(readme).toContain(section);
    expect(readFileSync(join(root, ".changeset/demo-x-initial.md"), "utf8")).toContain(
      '"@quiver/plugin-demo-x": minor',
    );
    // A one-tool plugin on one page: at most 80 lines of code in all its TypeScript, tests included.
    const lines = tsFiles(dir).reduce((n, f) => n + codeLines(readFileSync(f, "utf8")), 0);
    expect(lines, tsFiles(dir).join(", ")).toBeLessThanOrEqual(80);
    expect(codeLines("/** doc */\n// note\n\nconst a = `x\ny`; /* tail */\n")).toBe(2);
    // A second run refuses to overwrite it.
    expect(run("pnpm", ["--silent", "create-plugin", "demo-x", "--root", root], REPO).status).toBe(1);
  }, 60_000);

  it("passes describePluginPackage and describePluginConformance, and typechecks, unchanged", () => {
    const sibling = JSON.parse(readFileSync(join(SIBLING, "package.json"), "utf8"));
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(Object.keys(sibling.devDependencies)).toEqual(Object.keys(pkg.devDependencies));
    symlinkSync(join(SIBLING, "node_modules"), join(dir, "node_modules"), "dir");
    copyFileSync(join(REPO, "tsconfig.base.json"), join(root, "tsconfig.base.json"));

    const report = join(root, "report.json");
    const tested = run(
      process.execPath,
      [
        join(REPO, "node_modules/vitest/vitest.mjs"),
        "run",
        "--root",
        dir,
        "--reporter=json",
        `--outputFile=${report}`,
      ],
      dir,
    );
    expect(tested.status, tested.stderr).toBe(0);
    const results = JSON.parse(readFileSync(report, "utf8")) as {
      numFailedTests: number;
      numPassedTests: number;
      testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; status: string }> }>;
    };
    expect(results.numFailedTests).toBe(0);
    const suites = new Set(
      results.testResults.flatMap((f) => f.assertionResults.map((a) => a.ancestorTitles[0])),
    );
    expect([...suites].some((s) => s?.startsWith("conformance: plugin demo-x"))).toBe(true);
    expect([...suites].some((s) => s?.startsWith("package shape:"))).toBe(true);
    expect(results.numPassedTests).toBeGreaterThanOrEqual(10);

    const typed = run(
      process.execPath,
      [join(dir, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json", "--noEmit"],
      dir,
    );
    expect(typed.status, typed.stdout).toBe(0);
  }, 240_000);
});
