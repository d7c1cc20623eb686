import { useCatalog } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createContext7Plugin } from "../src/index.js";
import { useContext7Emulator } from "./context7-emulator.js";

// The `answer_with_docs` prompt through a real catalog against the Context7 emulator: its library_id
// completes from the ids each caller resolved (never another caller's), newest first.
const emu = useContext7Emulator();
const makeCatalog = useCatalog({ env: {} });
const open = () => {
  const catalog = makeCatalog();
  catalog.register(createContext7Plugin(), { baseUrl: `${emu.up.url}/api` });
  return catalog;
};
const as = (principal: string) => ({ session: { id: `s-${principal}`, principal } });
const LIBRARY_ID = { prompt: "answer_with_docs", argument: "library_id" };

describe("context7's answer_with_docs prompt", () => {
  it("lists the prompt with its arguments, library_id completing", () => {
    expect(open().prompts()).toEqual([
      expect.objectContaining({
        plugin: "context7",
        name: "answer_with_docs",
        arguments: [
          expect.objectContaining({ name: "library_id", required: true, completes: true }),
          expect.objectContaining({ name: "question", required: true, completes: false }),
        ],
      }),
    ]);
  });

  it("completes library_id from the ids the caller resolved, newest first, and from no one else's", async () => {
    const catalog = open();
    expect(await catalog.complete(LIBRARY_ID, "", as("alice"))).toEqual({ ok: true, value: [] });
    const react = await catalog.call(
      "context7_resolve_library_id",
      { library_name: "React", query: "state hooks" },
      as("alice"),
    );
    expect(react.status, react.message).toBe("success");
    const resolved = (react.data as { libraries: Array<{ id: string }> }).libraries.map((l) => l.id);
    expect(resolved[0]).toBe("/facebook/react");
    const next = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/vercel/next.js", query: "middleware" },
      as("alice"),
    );
    expect(next.status, next.message).toBe("success");

    const all = await catalog.complete(LIBRARY_ID, "", as("alice"));
    expect(all).toEqual({ ok: true, value: ["/vercel/next.js", ...resolved] });
    // By the id's start, or by any of its parts, case-insensitively.
    expect(await catalog.complete(LIBRARY_ID, "/vercel/", as("alice"))).toEqual({
      ok: true,
      value: ["/vercel/next.js"],
    });
    expect(await catalog.complete(LIBRARY_ID, "REACT", as("alice"))).toEqual({
      ok: true,
      value: resolved.filter((id) => id.split("/").some((p) => p.startsWith("react"))),
    });
    // Bob resolved nothing: alice's ids are hers.
    expect(await catalog.complete(LIBRARY_ID, "", as("bob"))).toEqual({ ok: true, value: [] });
  });

  it("gets messages that name the docs tool, the id and the question", async () => {
    const got = await open().getPrompt(
      "answer_with_docs",
      { library_id: "/vercel/next.js", question: "protect routes with middleware" },
      as("alice"),
    );
    expect(got.ok).toBe(true);
    const text = got.ok ? (got.value.messages[0]!.content as { text: string }).text : "";
    expect(text).toContain('context7_get_library_docs with library_id "/vercel/next.js"');
    expect(text).toContain("protect routes with middleware");
    expect(text).toContain("context7_resolve_library_id");
    expect(await open().getPrompt("answer_with_docs", { library_id: "/vercel/next.js" })).toMatchObject({
      ok: false,
      kind: "invalid_input",
    });
  });
});
