import { useCatalog } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createTestgenPlugin } from "../src/index.js";

const makeCatalog = useCatalog({ env: {} });

describe("the review_session prompt", () => {
  it("is listed, and gets a message that names the tool and the chosen options", async () => {
    const catalog = makeCatalog();
    catalog.register(createTestgenPlugin());
    expect(catalog.prompts()).toEqual([
      expect.objectContaining({
        name: "review_session",
        plugin: "testgen",
        arguments: [
          expect.objectContaining({ name: "topic", required: true }),
          expect.objectContaining({ name: "question_type" }),
          expect.objectContaining({ name: "difficulty" }),
        ],
      }),
    ]);
    const got = await catalog.getPrompt("review_session", {
      topic: "algoritmos genéticos",
      question_type: "multiple_choice",
      difficulty: "extreme",
    });
    if (!got.ok) throw new Error(got.message);
    const [message] = got.value.messages;
    expect(message?.role).toBe("user");
    const text = message?.content.type === "text" ? message.content.text : "";
    expect(text).toContain(
      'testgen_generate_test with topic "algoritmos genéticos", question_type "multiple_choice"',
    );
    // A difficulty the tool does not know is left out rather than passed on.
    expect(text).not.toContain("extreme");
  });

  it("needs a topic, and completes the question type and difficulty from the tool's values", async () => {
    const catalog = makeCatalog();
    catalog.register(createTestgenPlugin());
    expect(await catalog.getPrompt("review_session", {})).toMatchObject({ ok: false, kind: "invalid_input" });
    const target = (argument: string) => ({ prompt: "review_session", argument });
    expect(await catalog.complete(target("question_type"), "m")).toEqual({
      ok: true,
      value: ["multiple_choice"],
    });
    expect(await catalog.complete(target("difficulty"), "")).toEqual({
      ok: true,
      value: ["easy", "medium", "hard"],
    });
  });
});
