import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** Every source file of core (tests left out), by path relative to src. */
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [relative(src, path)] : [];
  });

/** The relative imports of a file (type-only ones too: a loop of types is a loop to read). */
const importsOf = (file: string): string[] =>
  [...readFileSync(join(src, file), "utf8").matchAll(/from "(\.{1,2}\/[^"]+)\.js"/g)].map((m) =>
    relative(src, resolve(dirname(join(src, file)), `${m[1]}.ts`)),
  );

/** The first import cycle found, as a list of files, or undefined. */
const findCycle = (graph: Map<string, string[]>): string[] | undefined => {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === "done") return undefined;
    if (state.get(file) === "open") return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, "done");
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
};

describe("core's modules", () => {
  it("import each other without a loop (the call reads one way: input → cache → policies → run → memory → envelope)", () => {
    const graph = new Map(sourceFiles(src).map((f) => [f, importsOf(f)]));
    expect(graph.size).toBeGreaterThan(50);
    expect(findCycle(graph)).toBeUndefined();
  });

  it("the cycle finder finds a loop when there is one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
    ]);
    expect(findCycle(graph)).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
  });
});
