import { definePlugin, fail } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { useServedPlugin } from "./served-plugin.js";

// Each principal's notes; a read answers only the asking principal's.
const NOTES: Record<string, Record<string, string>> = {
  alice: { n1: "alice's first note", n2: "ünïcödé ✓" },
  bob: { n1: "bob's note" },
};

const notesPlugin = definePlugin({
  id: "notes",
  version: "1.0.0",
  tools: [],
  resources: [
    {
      uri: "notes://index",
      name: "index",
      mimeType: "application/json",
      read: (ctx) => [
        { uri: "notes://index", text: JSON.stringify(Object.keys(NOTES[ctx.caller.principal ?? ""] ?? {})) },
      ],
    },
  ],
  resourceTemplates: [
    {
      uriTemplate: "notes://note/{id}",
      name: "note",
      description: "One of your notes.",
      mimeType: "text/plain",
      complete: {
        id: (value, ctx) =>
          Object.keys(NOTES[ctx.caller.principal ?? ""] ?? {}).filter((k) => k.startsWith(value)),
      },
      read: (uri, { id }, ctx) => {
        if (!ctx.caller.principal) throw fail.accessDenied("Sign in to read notes.");
        const text = NOTES[ctx.caller.principal]?.[id!];
        return text === undefined ? [] : [{ uri, mimeType: "text/plain", text }];
      },
    },
  ],
  prompts: [
    {
      name: "summarise_note",
      title: "Summarise a note",
      arguments: [
        {
          name: "id",
          description: "The note's id",
          required: true,
          complete: (v) => ["n1", "n2"].filter((n) => n.startsWith(v)),
        },
      ],
      get: (args) => [
        { role: "user", content: { type: "text", text: `Summarise notes://note/${args.id}.` } },
      ],
    },
  ],
});

const served = useServedPlugin(notesPlugin);
/** An SDK client over Streamable HTTP as `principal`, in the era given (else the SDK's default). */
const connect = (principal: "alice" | "bob", era?: "2026-07-28") => served.connect({ principal, era });

describe.each([
  ["2025-11-25", undefined],
  ["2026-07-28", "2026-07-28" as const],
])("resources, prompts and completions over MCP (%s)", (_, era) => {
  it("lists and reads resources as the caller, each principal its own", async () => {
    const alice = await connect("alice", era);
    expect(alice.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {}, completions: {} });
    expect((await alice.listResources()).resources).toEqual([
      { uri: "notes://index", name: "index", mimeType: "application/json" },
    ]);
    expect((await alice.listResourceTemplates()).resourceTemplates).toEqual([
      {
        uriTemplate: "notes://note/{id}",
        name: "note",
        description: "One of your notes.",
        mimeType: "text/plain",
      },
    ]);
    expect((await alice.readResource({ uri: "notes://note/n2" })).contents).toEqual([
      { uri: "notes://note/n2", mimeType: "text/plain", text: "ünïcödé ✓" },
    ]);
    expect((await alice.readResource({ uri: "notes://index" })).contents[0]).toMatchObject({
      text: '["n1","n2"]',
    });
    const bob = await connect("bob", era);
    expect((await bob.readResource({ uri: "notes://note/n1" })).contents[0]).toMatchObject({
      text: "bob's note",
    });
    // alice's second note is not bob's: nothing of it reaches him.
    await expect(bob.readResource({ uri: "notes://note/n2" })).rejects.toMatchObject({ code: -32602 });
  });

  it("answers an MCP error for a URI nothing serves", async () => {
    const alice = await connect("alice", era);
    // -32602 on every revision (the 2026-07-28 spec's rule; the SDK maps -32002 to it).
    await expect(alice.readResource({ uri: "notes://elsewhere" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("No resource at notes://elsewhere."),
    });
  });

  it("lists and gets prompts, and completes their arguments and template variables", async () => {
    const alice = await connect("alice", era);
    expect((await alice.listPrompts()).prompts).toEqual([
      {
        name: "summarise_note",
        title: "Summarise a note",
        arguments: [{ name: "id", description: "The note's id", required: true }],
      },
    ]);
    expect((await alice.getPrompt({ name: "summarise_note", arguments: { id: "n1" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarise notes://note/n1." } },
    ]);
    await expect(alice.getPrompt({ name: "summarise_note", arguments: {} })).rejects.toThrow(/needs id/);
    const prompt = await alice.complete({
      ref: { type: "ref/prompt", name: "summarise_note" },
      argument: { name: "id", value: "n" },
    });
    expect(prompt.completion).toEqual({ values: ["n1", "n2"], total: 2, hasMore: false });
    const template = await alice.complete({
      ref: { type: "ref/resource", uri: "notes://note/{id}" },
      argument: { name: "id", value: "n2" },
    });
    expect(template.completion.values).toEqual(["n2"]);
  });
});
