import type * as Redacted from "effect/Redacted";
import type { AnyTool } from "../define-tool.js";
import type { Redactor } from "../http/redact.js";
import type { PluginConfigResult } from "../plugin-config.js";
import type { ResolvedPolicy } from "../policies/resolve-policy.js";
import type { InjectedField } from "./injected-fields.js";
import type { PluginResources } from "./plugin-resources.js";

/** A tool as the catalog holds it: its exposed name, plugin, resolved policy and policy state. */
export interface RegisteredTool {
  /** The name models call (prefixed with the plugin id when two plugins clash). */
  readonly name: string;
  readonly tool: AnyTool;
  readonly pluginId: string;
  readonly policy: ResolvedPolicy;
  /** Annotated `destructive`: a call runs only once its preview is confirmed. */
  readonly destructive: boolean;
  /**
   * Results are kept by cache id (tool, caller, canonical input): the tool has a result cache or the
   * `stale` fallback, so each call works out its cache id.
   */
  readonly keysResults: boolean;
  /** The tool's context-injected fields (`inject`), normalised. */
  readonly inject: ReadonlyArray<InjectedField>;
  /** The plugin's config, or why it is missing. */
  readonly config: PluginConfigResult<unknown>;
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>;
  /** Hides {@link secrets} (and credential-looking URL parameters) in a text: core's one redactor. */
  readonly redact: Redactor;
  /** Hides only {@link secrets}, for results kept in a cache or store (their URLs are data). */
  readonly redactData: Redactor;
  /** What the plugin's `setup` opened for this registration, shared by its tools. */
  readonly resources: PluginResources;
}
