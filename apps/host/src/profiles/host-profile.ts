import { SEED_PROFILES, type SeedProfile, type SeedProfileName, type SeedTool } from "@quiver/adapters/seeds";
import type { Catalog, SessionContext } from "@quiver/core";
import type { ExtraMcpTool, ExtraToolResult } from "@quiver/mcp/server";
import { parseSessionValues, SESSION_VALUES_HEADER, SESSION_VALUES_META } from "./session-values.js";

/** A seed tool as GET /tools lists it. */
export interface ProfileToolInfo {
  readonly name: string;
  readonly description: string;
  readonly profile: SeedProfileName;
  readonly category: "profile";
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly uses: ReadonlyArray<string>;
}

/** The profile a host serves: its tools by name, run over the host's catalog. */
export interface HostProfile {
  readonly profile: SeedProfile;
  readonly find: (name: string) => SeedTool | undefined;
  /** Runs a seed tool; answers exactly the seed's value (a dict, a str, a list). */
  readonly call: (
    tool: SeedTool,
    args: unknown,
    ctx: { readonly session: SessionContext; readonly signal?: AbortSignal; readonly timeoutMs?: number },
  ) => Promise<unknown>;
  readonly list: () => ProfileToolInfo[];
  /** The seed tools as MCP tools (structured content and text, never an envelope). */
  readonly mcpTools: () => ExtraMcpTool[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The MCP result of a seed's value: the text as the seed would print it (a str as itself, anything
 * else as JSON), and `structuredContent` the dict, or `{result: value}` for a str or a list (the MCP
 * Python SDK's convention: structured content is an object).
 */
export const toSeedCallResult = (value: unknown): ExtraToolResult => ({
  content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
  structuredContent: isObject(value) ? value : { result: value },
  isError: false,
});

/**
 * Builds the host's profile over its catalog: the seed tools (from @quiver/adapters) by name, their
 * listing, and their MCP form, where session values come from the `X-Quiver-Session-Values` header
 * of the MCP HTTP request or the call's `_meta["quiver/session-values"]`.
 *
 * @example
 * const profile = createHostProfile("chatbot", host.catalog);
 * await profile.call(profile.find("get_guia")!, {}, { session: { values: { asignatura: "metaheuristicas" } } });
 */
export const createHostProfile = (name: SeedProfileName, catalog: Catalog): HostProfile => {
  const profile = SEED_PROFILES[name];
  const byName = new Map(profile.tools.map((t) => [t.name, t]));
  const call: HostProfile["call"] = (tool, args, ctx) => tool.run(catalog, isObject(args) ? args : {}, ctx);
  return {
    profile,
    find: (n) => byName.get(n),
    call,
    list: () =>
      profile.tools.map((t) => ({
        name: t.name,
        description: t.description,
        profile: name,
        category: "profile" as const,
        inputSchema: t.inputSchema,
        uses: t.uses,
      })),
    mcpTools: () =>
      profile.tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        uses: t.uses,
        call: async (args, ctx) => {
          const fromHeader = parseSessionValues(ctx.headers?.get(SESSION_VALUES_HEADER));
          const fromMeta = ctx.meta?.[SESSION_VALUES_META];
          const values = {
            ...(fromHeader instanceof Error ? {} : fromHeader),
            ...(isObject(fromMeta) ? fromMeta : {}),
          };
          const value = await call(t, args, {
            session: {
              id: ctx.sessionId,
              ...(ctx.principal !== undefined ? { principal: ctx.principal } : {}),
              ...(Object.keys(values).length > 0 ? { values } : {}),
            },
            signal: ctx.signal,
            // A per-call time limit in `_meta.timeoutMs`, as for the catalog's tools.
            ...(typeof ctx.meta?.timeoutMs === "number" ? { timeoutMs: ctx.meta.timeoutMs } : {}),
          });
          return toSeedCallResult(value);
        },
      })),
  };
};
