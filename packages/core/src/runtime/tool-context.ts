import type * as Clock from "effect/Clock";
import type { Caller } from "../caller.js";
import type { ToolContext } from "../define-tool.js";
import type { ToolResult } from "../envelope.js";
import type { HttpClient } from "../http/index.js";
import type { CallTrace } from "./call-trace.js";
import type { CallOptions, SessionContext } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";

/** What a tool's context reaches outside the tool: the HTTP client, the clock and the other tools. */
export interface ToolWorld {
  readonly http: HttpClient;
  /** The catalog's clock (the live one, or the `clock` option). */
  readonly clock: Clock.Clock;
  readonly callTool: (name: string, input: unknown, options: CallOptions) => Promise<ToolResult>;
  readonly hasTool: (name: string) => boolean;
}

/** Who is calling, from the call's session. */
export const callerOf = (session: SessionContext): Caller => ({
  principal: session.principal,
  groups: session.groups ?? [],
  clientId: session.clientId,
  scopes: session.scopes,
  sessionId: session.id,
  session: session.values ?? {},
});

/** The context one attempt of a tool runs with. */
export const toolContext = (
  reg: RegisteredTool,
  world: ToolWorld,
  options: CallOptions,
  session: SessionContext,
  callId: string,
  signal: AbortSignal,
  attempt: number,
  reportPartial: (data: unknown) => void,
  /** The call's spans, when traced: the tools it calls (`ctx.callTool`) join its trace. */
  trace?: CallTrace | undefined,
): ToolContext => ({
  call: { id: callId, tool: reg.name, plugin: reg.pluginId, attempt },
  caller: callerOf(session),
  signal,
  config: reg.config.ok ? reg.config.value : undefined,
  resources: reg.resources.current,
  http: world.http,
  progress: (p) => options.onProgress?.(p),
  log: (level, message, data) =>
    options.onLog?.(data === undefined ? { level, message } : { level, message, data }),
  client: options.client ?? {},
  reportPartial,
  callTool: (name, input) =>
    world.callTool(name, input, {
      session,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(trace ? { trace: trace.childContext() } : {}),
    }),
  hasTool: world.hasTool,
  clock: world.clock,
});
