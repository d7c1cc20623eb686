import type { ToolContext } from "@quiver/core";
import type { Material } from "./questions.js";

/** The material questions are based on, and where it came from. */
export interface Grounding {
  readonly kind: "context" | "rag" | "none";
  readonly material: ReadonlyArray<Material>;
  /** Why rag gave nothing, when it was tried. */
  readonly note?: string;
}

/** The companion tool testgen asks for material when no context is given. */
export const RAG_TOOL = "rag_search";

/**
 * The material to ground questions in: the `context` argument when given; else the results of
 * `rag_search` (when the rag plugin is in the same catalog) for the topic and subject; else none.
 */
export const ground = async (
  topic: string,
  context: string | undefined,
  asignatura: string | undefined,
  ctx: Pick<ToolContext, "hasTool" | "callTool">,
): Promise<Grounding> => {
  if (context?.trim()) return { kind: "context", material: [{ text: context, source: "context" }] };
  if (!ctx.hasTool(RAG_TOOL)) return { kind: "none", material: [] };
  const search = { query: topic, top_k: 6, ...(asignatura ? { asignatura } : {}) };
  const result = await ctx.callTool(RAG_TOOL, search);
  const results = (result.data as { results?: unknown } | undefined)?.results;
  if ((result.status !== "success" && result.status !== "partial") || !Array.isArray(results))
    return { kind: "none", material: [], note: `${RAG_TOOL} answered ${result.status}: ${result.message}` };
  const material = (results as Array<{ content?: unknown; metadata?: { source?: unknown } }>).flatMap(
    ({ content, metadata }) =>
      typeof content === "string" && content.trim() !== ""
        ? [{ text: content, source: typeof metadata?.source === "string" ? metadata.source : undefined }]
        : [],
  );
  return material.length > 0
    ? { kind: "rag", material }
    : { kind: "none", material: [], note: `${RAG_TOOL} found nothing for "${topic}"` };
};
