// The user's code for zod-other-minor.test.ts: a tool built with `zod-other` (zod 4.1), another
// copy and minor than the zod core is built with. Plain JavaScript on purpose: at the type level two
// zod copies are distinct type graphs, and comparing them sends tsc out of memory, which is one more
// reason zod is a peer dependency (one copy per project). The run-time interplay is what is tested.
import { z as zodOther } from "zod-other";
import { definePlugin, defineTool } from "../src/index.js";

/** A tool whose input and output schemas come from the user's zod 4.1. */
export const lookup = defineTool({
  name: "user_lookup_item",
  description: "Looks an item up by id. Use when the user names an item.",
  category: "test",
  input: zodOther.object({
    id: zodOther.string().min(2).describe("Item id"),
    limit: zodOther.number().int().min(1).max(10).default(3).describe("How many related items"),
    kind: zodOther.enum(["book", "paper"]).optional().describe("Kind of item"),
  }),
  output: zodOther.object({ id: zodOther.string(), related: zodOther.array(zodOther.string()) }),
  run: ({ id, limit }) => ({ id, related: Array.from({ length: limit }, (_, i) => `${id}-${i}`) }),
});

/** Its plugin. */
export const plugin = definePlugin({
  specificationVersion: "v1",
  id: "user",
  version: "1.0.0",
  tools: [lookup],
});
