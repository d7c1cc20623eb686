import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "./front-matter.js";

describe("parseFrontMatter", () => {
  it("reads scalars, lists and block scalars", () => {
    const text = [
      "---",
      "title: 'Cell biology: week 3' # the title",
      "date: 2024-02-01",
      "week: 3",
      "draft: false",
      'tags: [cells, "membranes, lipids", 2]',
      "authors:",
      "  - Jane Doe",
      "  - John Roe",
      "summary: |",
      "  Line one",
      "  line two",
      "empty:",
      "url: https://example.org/a:b",
      "---",
      "# Heading",
      "Body.",
    ].join("\n");
    const { data, body, problems } = parseFrontMatter(text);
    expect(problems).toEqual([]);
    expect(data).toEqual({
      title: "Cell biology: week 3",
      date: "2024-02-01",
      week: 3,
      draft: false,
      tags: ["cells", "membranes, lipids", 2],
      authors: ["Jane Doe", "John Roe"],
      summary: "Line one\nline two",
      empty: null,
      url: "https://example.org/a:b",
    });
    expect(body).toBe("# Heading\nBody.");
  });

  it("reports nested maps and leaves texts without front matter alone", () => {
    const { data, problems } = parseFrontMatter("---\nowner:\n  name: x\nok: yes\n---\ntext");
    expect(data).toEqual({ ok: "yes" });
    expect(problems[0]).toMatch(/nested map/);
    expect(parseFrontMatter("# Just markdown\n---\n")).toEqual({
      data: {},
      body: "# Just markdown\n---\n",
      problems: [],
    });
    expect(parseFrontMatter("---\ntitle: x\nno end").problems[0]).toMatch(/not closed/);
  });
});
