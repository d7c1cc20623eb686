import type { Redacted } from "effect";
import type { CircuitBreaker } from "effect/persistence";
import type { AnyTool } from "../define-tool.js";
import type { ResolvedPolicy } from "../policies/resolve-policy.js";
import type { PluginResources } from "./plugin-resources.js";
import type { ToolPipeline } from "./tool-pipeline.js";

/** The result of one execution, before it becomes an envelope. */
export interface Executed {
  readonly data: unknown;
  readonly partial: boolean;
  readonly message: string | undefined;
  readonly instruction: string | undefined;
  readonly source: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly attempts: number;
}

/** A tool as the catalog holds it: its exposed name, plugin, resolved policy and policy state. */
export interface RegisteredTool {
  /** The name models call (prefixed with the plugin id when two plugins clash). */
  readonly name: string;
  readonly tool: AnyTool;
  readonly pluginId: string;
  readonly pluginVersion: string;
  readonly policy: ResolvedPolicy;
  /** The plugin's config, or why it is missing. */
  readonly config:
    | { readonly ok: true; readonly value: unknown }
    | { readonly ok: false; readonly message: string; readonly missing: ReadonlyArray<string> };
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>;
  /** What the plugin's `setup` opened for this registration, shared by its tools. */
  readonly resources: PluginResources;
  readonly breaker: CircuitBreaker.CircuitBreaker | undefined;
  /** Its policies composed with the cache, made at the first call (in the runtime's context). */
  pipeline: ToolPipeline | undefined;
}
