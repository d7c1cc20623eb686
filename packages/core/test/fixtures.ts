import { z } from "zod";
import { definePlugin, defineTool, type fail, type InjectSpec, type ToolPolicy } from "../src/index.js";

/** A plugin whose tools are steered by the test through shared state: counts, failures, delays. */
export const makeProbe = (
  policy: ToolPolicy = {},
  annotations = { readOnly: true, openWorld: true },
  inject: Partial<Record<"q" | "n" | "who", string | InjectSpec>> = { who: "principal" },
) => {
  const state = {
    runs: 0,
    failWith: [] as Array<ReturnType<typeof fail.upstream>>,
    throwWith: [] as unknown[],
    delayMs: 0,
    aborted: 0,
  };
  const probe = defineTool({
    name: "probe",
    description: "A test tool that echoes its input after the configured behaviour.",
    category: "computational_service",
    input: z.object({
      q: z.string().describe("Any text"),
      n: z.number().int().optional().describe("A number"),
      who: z.string().optional().describe("Filled from the session"),
    }),
    output: z.object({ echo: z.string(), run: z.number(), who: z.string().optional() }),
    examples: [{ input: { q: "hello" } }],
    annotations,
    policy,
    inject,
    run: async ({ q, who }, ctx) => {
      state.runs++;
      const run = state.runs;
      if (state.delayMs > 0) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, state.delayMs);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(t);
            state.aborted++;
            reject(new Error("aborted"));
          });
        });
      }
      const thrown = state.throwWith.shift();
      if (thrown !== undefined) throw thrown;
      const failure = state.failWith.shift();
      if (failure) throw failure;
      return { echo: q, run, ...(who ? { who } : {}) };
    },
  });
  const plugin = definePlugin({ specificationVersion: "v1", id: "probe", version: "1.0.0", tools: [probe] });
  return { plugin, state };
};
