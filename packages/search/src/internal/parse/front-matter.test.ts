import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "./front-matter.js";

describe("parseFrontMatter", () => {
  it("keeps the body after the front matter exactly, CRLF line breaks and all", () => {
    const { data, body } = parseFrontMatter("---\r\ntitle: T\r\n---\r\n# T\r\n\r\nBody.\r\n\tEnd  \n");
    expect(data).toEqual({ title: "T" });
    expect(body).toBe("# T\r\n\r\nBody.\r\n\tEnd  \n");
    expect(parseFrontMatter("---\ntitle: T\n---").body).toBe("");
    expect(parseFrontMatter("---\ntitle: T\n---\n").body).toBe("");
  });

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
      // YAML's "|" keeps the final line break ("|-" strips it).
      summary: "Line one\nline two\n",
      empty: null,
      url: "https://example.org/a:b",
    });
    expect(body).toBe("# Heading\nBody.");
  });

  it("reads what the hand-written reader got wrong: nested maps, flow lists over lines, folded plain text, anchors", () => {
    const text = [
      "---",
      "owner:",
      "  name: Jane Doe",
      "  email: jane@example.org",
      "tags: [cells,",
      "  membranes]",
      "summary: a plain text",
      "  that goes on",
      "defaults: &d { course: BIO101 }",
      "metadata: *d",
      "note: 'it''s # not a comment'",
      "---",
      "body",
    ].join("\n");
    expect(parseFrontMatter(text)).toEqual({
      data: {
        owner: { name: "Jane Doe", email: "jane@example.org" },
        tags: ["cells", "membranes"],
        summary: "a plain text that goes on",
        defaults: { course: "BIO101" },
        metadata: { course: "BIO101" },
        note: "it's # not a comment",
      },
      body: "body",
      problems: [],
    });
  });

  it("reports what YAML refuses with its line in the file, and keeps what it could read", () => {
    const { data, problems } = parseFrontMatter("---\ntitle: a\nweek: 3\ntitle: b\n---\ntext");
    expect(problems).toEqual(["line 4: Map keys must be unique"]);
    expect(data).toMatchObject({ week: 3 });
    expect(parseFrontMatter("---\n- a\n- b\n---\ntext").problems).toEqual([
      "front matter is not a map of `key: value` lines",
    ]);
  });

  it("stops an alias bomb instead of expanding it", () => {
    const bomb = ["---", "a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 8; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      bomb.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    const { data, problems } = parseFrontMatter([...bomb, "---", "text"].join("\n"));
    expect(data).toEqual({});
    expect(problems[0]).toMatch(/alias/i);
  });

  it("leaves texts without front matter alone and says when it is not closed", () => {
    expect(parseFrontMatter("# Just markdown\n---\n")).toEqual({
      data: {},
      body: "# Just markdown\n---\n",
      problems: [],
    });
    expect(parseFrontMatter("---\ntitle: x\nno end").problems[0]).toMatch(/not closed/);
  });
});
