import { describe, expect, it } from "vitest";
import { SearchError } from "../src/index.js";
import type { StoreUnderTest } from "./conformance.js";

/** Text that a careless store would change: NUL, CRLF, tabs, edge spaces, combining marks, emoji, RTL, CJK. */
const TRICKY =
  "  Caf\u0065\u0301 \u00e9t\u00e9\r\n\tNUL:\u0000; emoji \u{1F9EC}\u{1F468}\u200D\u{1F52C}; " +
  "\u05E9\u05DC\u05D5\u05DD; \u6E2C\u8A66 \uFEFF z\u0000  \n\n";

/** A text of several MB, many chunks long, whose words vary so the chunks differ. */
function largeText(): string {
  const sentence = (i: number) =>
    `Sentence ${i} measures telomerase activity in cohort ${i % 97} with marker \u03B1${i % 13}.`;
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < 3_000_000; i++) {
    const part = i % 500 === 0 ? `\n\n## Section ${i / 500}\n\n${sentence(i)}` : ` ${sentence(i)}`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("");
}

const invalid = (e: unknown) => SearchError.isInstance(e) && e.code === "invalid_option";

/** `document()` and `documents()`: what every store must read back, the SQLite and PostgreSQL ones alike. */
export function documentsConformance(store: StoreUnderTest): void {
  describe("original texts", () => {
    it("reads a document back with its fields and its text exactly as added", async () => {
      const index = await store.fresh().open();
      const doc = {
        id: "tricky",
        title: "Édition spéciale",
        text: TRICKY,
        authors: ["Doe, Jane"],
        date: "2021-03",
        tags: ["Biology"],
        doi: "10.1000/xyz",
        metadata: { course: "bio101", week: 3, topics: ["cells"] },
      };
      await index.add([doc], { collection: "c" });
      const read = await index.document("tricky", { collection: "c" });
      expect(read).toEqual({
        id: "tricky",
        collection: "c",
        title: "Édition spéciale",
        metadata: { course: "bio101", week: 3, topics: ["cells"] },
        authors: ["Jane Doe"],
        date: "2021-03",
        tags: ["Biology"],
        doi: "10.1000/xyz",
        chunks: 1,
        text: TRICKY,
        size: TRICKY.length,
        bytes: Buffer.byteLength(TRICKY, "utf8"),
      });
      expect(Buffer.from(read!.text!, "utf8").equals(Buffer.from(TRICKY, "utf8"))).toBe(true);
      // Absent: another collection, another id, the default collection.
      expect(await index.document("tricky")).toBeUndefined();
      expect(await index.document("tricky", { collection: "d" })).toBeUndefined();
      expect(await index.document("nope", { collection: "c" })).toBeUndefined();
      await index.close();
    });

    it("keeps a document of several MB whole, not the overlapping chunks it is searched by", {
      timeout: 120_000,
    }, async () => {
      const index = await store.fresh().open();
      const text = largeText();
      const { chunks } = await index.add([{ id: "big", title: "Cohort report", text }]);
      expect(chunks).toBeGreaterThan(1000);
      const read = await index.document("big");
      expect(read?.chunks).toBe(chunks);
      expect(read?.size).toBe(text.length);
      expect(read?.bytes).toBe(Buffer.byteLength(text, "utf8"));
      expect(read?.text === text).toBe(true);
      const hit = (await index.search("cohort 42 telomerase")).results[0]!;
      expect(hit.docId).toBe("big");
      expect(hit.text.length).toBeLessThan(text.length / 100);
      await index.close();
    });

    it("replaces the text with the document, and forgets it when removed", async () => {
      const index = await store.fresh().open();
      await index.add([{ id: "a", text: "first version" }]);
      await index.add([{ id: "a", text: "second version" }]);
      expect((await index.document("a"))?.text).toBe("second version");
      await index.add([{ id: "b", text: "kept" }], { collection: "other" });
      expect(await index.remove("a")).toBe(1);
      expect(await index.document("a")).toBeUndefined();
      expect(await index.removeCollection("other")).toBe(1);
      expect(await index.document("b", { collection: "other" })).toBeUndefined();
      await index.close();
    });
  });

  describe("document listing", () => {
    it("pages through a collection by id in code point order, each document once, with sizes", async () => {
      const index = await store.fresh().open();
      const ids = ["b", "B", "a", "a b", "é", "\u{1F9EC}", "z", "Z10", "Z9"];
      await index.add(
        ids.map((id, i) => ({
          id,
          title: `Doc ${id}`,
          text: "x".repeat(i + 1),
          ...(i === 0 ? { date: "2020" } : {}),
        })),
        { collection: "c" },
      );
      await index.add([{ id: "elsewhere", text: "not listed" }], { collection: "d" });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await index.documents({ collection: "c", limit: 2, ...(cursor ? { cursor } : {}) });
        pages++;
        expect(page.documents.length).toBeLessThanOrEqual(2);
        for (const d of page.documents) {
          const i = ids.indexOf(d.id);
          expect(d).toEqual({
            id: d.id,
            title: `Doc ${d.id}`,
            size: i + 1,
            bytes: i + 1,
            ...(i === 0 ? { date: "2020" } : {}),
          });
          seen.push(d.id);
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(pages).toBe(5);
      // Code point order (UTF-8 byte order): upper case, then lower case, then accented letters, then emoji.
      const expected = [...ids].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      expect(seen).toEqual(expected);
      expect(seen.slice(0, 3)).toEqual(["B", "Z10", "Z9"]);
      expect((await index.documents({ collection: "c" })).documents.map((d) => d.id)).toEqual(expected);
      // A page exactly as long as what is left has no next cursor.
      const whole = await index.documents({ collection: "c", limit: ids.length });
      expect(whole.nextCursor).toBeUndefined();
      expect(await index.documents({ collection: "nothing" })).toEqual({ documents: [] });
      await index.close();
    });

    it("rejects a limit out of range and a malformed cursor", async () => {
      const index = await store.fresh().open();
      for (const limit of [0, 1001, 1.5]) {
        await expect(index.documents({ limit })).rejects.toSatisfy(invalid);
      }
      for (const cursor of ["", "not a cursor!", "YQ"]) {
        const expectation = expect(index.documents({ cursor }));
        if (cursor === "YQ") await expectation.resolves.toEqual({ documents: [] });
        else await expectation.rejects.toSatisfy(invalid);
      }
      await expect(index.document("a", { collection: "" })).rejects.toSatisfy(invalid);
      await index.close();
    });
  });
}
