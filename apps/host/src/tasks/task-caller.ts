import { randomUUID } from "node:crypto";
import type { CallOptions, Catalog, ToolResult } from "@quiver/core";
import type { HostProfile } from "../profiles/host-profile.js";

/**
 * The envelope a seed tool's task keeps: the seed's own value (an `ExternalToolResponse`, a dict, a
 * str) as its data. A seed answers its failures in that value, so its task completes whatever the
 * value says, as its plain call answers 200 whatever it says.
 */
const seedEnvelope = (tool: string, plugin: string, value: unknown, startedAt: number): ToolResult => ({
  status: "success",
  message: `${tool} answered.`,
  data: value,
  metadata: {
    tool,
    plugin,
    callId: randomUUID(),
    durationMs: Date.now() - startedAt,
    attempts: 1,
    cached: false,
    truncated: false,
  },
});

/** A seed tool that threw (a defect: seeds answer their failures as values). */
const seedDefect = (tool: string, plugin: string, error: unknown, startedAt: number): ToolResult => {
  const message = `${tool} failed: ${(error as Error).message ?? String(error)}`;
  return {
    ...seedEnvelope(tool, plugin, undefined, startedAt),
    status: "error",
    message,
    error: { kind: "internal", message, retryable: false },
  };
};

/**
 * What the host's task runner calls: the profile's seed tool of that name (its value kept as the
 * envelope's data), else the catalog's tool, with every policy. So `POST /external-tools/execute`
 * can run as a task beside the catalog's task-capable tools.
 *
 * @example
 * createTaskRunner({ catalog: hostTaskCaller(host.catalog, host.profile), store: host.store })
 */
export const hostTaskCaller = (
  catalog: Catalog,
  profile: HostProfile | undefined,
): Pick<Catalog, "call"> => ({
  call: async (name: string, input: unknown, options: CallOptions = {}) => {
    const seed = profile?.find(name);
    if (!profile || !seed) return catalog.call(name, input, options);
    const plugin = `profile:${profile.profile.name}`;
    const startedAt = Date.now();
    try {
      const value = await profile.call(seed, input, {
        session: options.session ?? { id: `task-${randomUUID()}` },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return seedEnvelope(name, plugin, value, startedAt);
    } catch (error) {
      return seedDefect(name, plugin, error, startedAt);
    }
  },
});

/** Whether a task's result is a seed tool's value (its envelope's data is the answer). */
export const isSeedTask = (profile: HostProfile | undefined, tool: string): boolean =>
  profile?.find(tool) !== undefined;
