import type { ToolCaller } from "../tool-caller.js";
import { ALIASES, externalToolCatalogue, KNOWN, norm } from "./catalogue.js";
import { isObject, show } from "./json.js";
import { privateRepository } from "./private-repository-mapping.js";
import { failure } from "./responses.js";
import type { SeedTool } from "./seed-tool.js";
import { type ExternalToolResponse, TOOL_TYPES, type ToolType } from "./types.js";

/** Finds the mapping for a request: its category and name, or why there is none. */
export const resolveTool = (
  caller: ToolCaller & { readonly has?: (name: string) => boolean },
  type: unknown,
  name: string,
): { readonly tool: SeedTool; readonly type: ToolType } | { readonly refused: ExternalToolResponse } => {
  const alias = ALIASES[norm(name)];
  const toolType = (type === undefined && alias ? alias[0] : type) as ToolType;
  if (!TOOL_TYPES.includes(toolType)) {
    return {
      refused: failure(name, "INVALID_REQUEST", `tool_type must be one of ${TOOL_TYPES.join(", ")}.`, {
        suggestion: `Set tool_type to one of ${TOOL_TYPES.join(", ")}.`,
      }),
    };
  }
  if (toolType === "PRIVATE_REPOSITORY") return { tool: privateRepository, type: toolType };
  const known = KNOWN[toolType];
  const hit =
    Object.entries(known).find(([k]) => norm(k) === norm(name)) ??
    (alias && alias[0] === toolType ? [alias[1], known[alias[1]]!] : undefined);
  if (hit) return { tool: hit[1] as SeedTool, type: toolType };
  // A computational service (or any category) may name a Quiver tool directly.
  if (caller.has?.(name)) {
    return {
      tool: {
        tool: name,
        description: "",
        querySchema: {},
        input: (query, constraints) => ({
          input: query,
          unmet: Object.keys(constraints).map(
            (k) =>
              `${k}: ${name} has no constraint mapping; "${k}" (${show(constraints[k])}) was not applied`,
          ),
        }),
        shape: (d) => ({ results: isObject(d) ? d : { value: d } }),
      },
      type: toolType,
    };
  }
  const names = Object.keys(known);
  return {
    refused: failure(
      name,
      "UNKNOWN_TOOL",
      names.length > 0
        ? `No ${toolType} named "${name}". Known names: ${names.join(", ")}.`
        : `No ${toolType} named "${name}": none is configured. Known tools: ${externalToolCatalogue()
            .map((t) => `${t.tool_type}/${t.tool_name}`)
            .join(", ")}.`,
      { known_tools: names },
    ),
  };
};
