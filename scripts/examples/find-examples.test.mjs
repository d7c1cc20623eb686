import { describe, expect, it } from "vitest";
import { findExamples } from "./find-examples.mjs";
import { freeNames } from "./snippet-names.mjs";

const source = `
/**
 * Adds.
 *
 * @example
 * add(1, 2) // 3
 */
export const add = (a: number, b: number) => a + b;

/**
 * @example
 * hidden()
 */
const hidden = () => 0;

/** A shape. */
export interface Shape {
  /**
   * Its area.
   *
   * @example
   * \`\`\`ts
   * shape.area()
   * \`\`\`
   * \`\`\`sh
   * quiver call shape_area
   * \`\`\`
   */
  area(): number;
}

/**
 * @example
 * listed()
 */
function listed() {}
export { listed };
`;

describe("findExamples", () => {
  it("finds the examples of exported declarations and their members, with their lines", () => {
    expect(findExamples("x.ts", source)).toEqual([
      { symbol: "add", line: 6, lines: [{ text: "add(1, 2) // 3", line: 6 }] },
      { symbol: "Shape.area", line: 23, lines: [{ text: "shape.area()", line: 23 }] },
      { symbol: "listed", line: 34, lines: [{ text: "listed()", line: 34 }] },
    ]);
  });
});

describe("freeNames", () => {
  it("names what a snippet uses but does not declare or import", () => {
    const names = freeNames(
      'import { z } from "zod";\nconst catalog = createCatalog();\ncatalog.call(name, { text });',
    );
    expect([...names].sort()).toEqual(["createCatalog", "name", "text"]);
  });
});
