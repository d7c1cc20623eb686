import type { ToolAnnotations } from "@quiver/core";

/** MCP tool annotations as they travel on the wire. */
export interface McpToolAnnotations {
  title?: string | undefined;
  readOnlyHint?: boolean | undefined;
  destructiveHint?: boolean | undefined;
  idempotentHint?: boolean | undefined;
  openWorldHint?: boolean | undefined;
}

/**
 * Quiver annotations → MCP hints, every hint explicit: MCP's own defaults (destructive and open-world
 * when absent) would misdescribe a Quiver tool, which is neither unless it says so.
 */
export const toMcpAnnotations = (a: ToolAnnotations, title: string | undefined): McpToolAnnotations => {
  const readOnly = a.readOnly ?? false;
  return {
    ...(title ? { title } : {}),
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && (a.destructive ?? false),
    idempotentHint: a.idempotent ?? readOnly,
    openWorldHint: a.openWorld ?? false,
  };
};

/**
 * MCP hints → Quiver annotations, for bridged remote tools. Only an explicit `destructiveHint: true`
 * makes a tool destructive (so it needs confirmation); a bridged tool always reaches outside the
 * host, so it is open-world (and gets the circuit breaker).
 */
export const fromMcpAnnotations = (a: McpToolAnnotations | undefined): ToolAnnotations => {
  const readOnly = a?.readOnlyHint === true;
  return {
    ...(a?.title ? { title: a.title } : {}),
    readOnly,
    destructive: !readOnly && a?.destructiveHint === true,
    idempotent: a?.idempotentHint ?? readOnly,
    openWorld: true,
  };
};
