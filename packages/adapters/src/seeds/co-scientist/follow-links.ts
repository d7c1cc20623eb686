import type { ContentPart, ToolResult } from "@quiver/core";
import type { SeedToolsOptions, ToolCaller } from "../tool-caller.js";

/**
 * The envelope with each `resource_link` it carries (an artifact the runtime kept aside because it
 * was over the output budget) read back and embedded, under the same session, so a mapping can answer
 * the artifact itself (the co-scientist's `structure_data` is the PDB text, never a link). A link the
 * caller cannot read (no `readResource`, or a failed read) is left as it is.
 */
export const withLinksRead = async (
  r: ToolResult,
  caller: ToolCaller,
  options: SeedToolsOptions,
): Promise<ToolResult> => {
  const parts = r.metadata.content;
  const read = caller.readResource;
  if (!read || !parts?.some((p) => p.type === "resource_link")) return r;
  const followed = await Promise.all(
    parts.map(async (part): Promise<ContentPart> => {
      if (part.type !== "resource_link") return part;
      const answer = await read(part.uri, {
        ...(options.session ? { session: options.session } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const [contents] = answer.ok ? answer.value : [];
      return contents ? { type: "resource", resource: contents } : part;
    }),
  );
  return { ...r, metadata: { ...r.metadata, content: followed } };
};
