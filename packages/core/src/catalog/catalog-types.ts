import type * as Clock from "effect/Clock";
import type * as Layer from "effect/Layer";
import type * as Metric from "effect/Metric";
import type { AnyPlugin, HealthReport } from "../define-plugin.js";
import type { ToolAnnotations, ToolCategory, ToolExample } from "../define-tool.js";
import type { DurationInput } from "../duration.js";
import type { ToolResult } from "../envelope.js";
import type { HttpClient } from "../http/index.js";
import type { PluginSlots, ResourceContents, ToolVisibility } from "../plugin-slots.js";
import type { BatchCall } from "../runtime/call-many.js";
import type { CallOptions } from "../runtime/call-types.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import type { RuntimeLog } from "../runtime/runtime-log.js";
import type { ToolStats } from "../runtime/tool-stats.js";
import type { SchemaTarget } from "../schema/json-schema-types.js";
import type { StoreDriver } from "../store/store-driver.js";
import type { ToolPolicy } from "../tool-policy.js";
import type {
  CompletionTarget,
  PromptAnswer,
  PromptInfo,
  ResourceChangeListener,
  ResourceInfo,
  ResourceTemplateInfo,
  SlotAnswer,
  SlotCallOptions,
} from "./slot-types.js";

/** Options of a catalog: the world it runs in and the host's overrides. */
export interface CatalogOptions {
  /** The HTTP client tools use (default: a new pooled undici client, closed with the catalog). */
  readonly http?: HttpClient;
  /** Environment for plugin settings (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Per-tool policy overrides by tool name; `"*"` applies to every tool. */
  readonly policies?: Readonly<Record<string, ToolPolicy>>;
  /**
   * The one store the catalog keeps its state in: cached results (per principal, with their time to
   * live; identical calls run once across processes), confirmation tokens, last good results for the
   * `stale` fallback and escalation counts, and, through the driver's `policyStores`, rate limits
   * and circuit breakers. Default: `memoryDriver()`, this process only. Give every replica the same
   * shared driver (`redisStore` from @quiver/redis) and they behave as one host. Local cache hits are
   * answered from this process's memory either way. Closed with the catalog.
   */
  readonly store?: StoreDriver;
  /**
   * How long an artifact spilled out of an answer (an embedded resource over the tool's output budget,
   * answered as a `resource_link`) stays readable in the store, by the principal whose call made it.
   * Default 1 hour.
   */
  readonly resultTtl?: DurationInput;
  /**
   * Extra services for every call, e.g. an OTLP tracer and metrics layer (`effect/observability`):
   * with a tracer installed each call makes `execute_tool` spans (see the README's "Telemetry"). It
   * is built over the catalog's own services, so a metrics exporter reads the catalog's metrics.
   */
  readonly layer?: Layer.Layer<never>;
  /** Record the caller's principal on each call's span as `quiver.principal` (default false). */
  readonly tracePrincipal?: boolean;
  /**
   * The OAuth scopes a tool needs (e.g. from the host's `auth.scopes`). Checked on every call whose
   * session carries scopes, including the calls a tool makes with `ctx.callTool`, so a tool cannot
   * reach another for a caller who may not call that one: such a call answers `access_denied` naming
   * the missing scopes. A session without scopes (static tokens, stdio) is not scope-limited.
   */
  readonly requiredScopes?: (tool: Readonly<{ name: string; plugin: string }>) => ReadonlyArray<string>;
  /**
   * Other names for tools, `{ alias: toolName }`: each alias is listed as a tool of its own and calls
   * the tool it stands for. An alias that is a registered tool's name makes `register` throw; call
   * `checkAliases()` once the plugins are registered to catch aliases of missing tools.
   */
  readonly aliases?: Readonly<Record<string, string>>;
  /**
   * The clock the policies run on (timeouts, backoff, breaker and rate-limit windows, cache and stale
   * ages). Default: the live clock. Pass Effect's `TestClock` to move time in tests instead of waiting.
   */
  readonly clock?: Clock.Clock;
  /**
   * Where the runtime's own log lines go (Effect's `Effect.log*` in the calls: a store's outage, a
   * tool's own lines), as `(level, message)`. Default: standard error, never standard output (an MCP
   * stdio server speaks on standard output).
   */
  readonly log?: RuntimeLog;
}

/** One tool as listed: what a model or a person needs to choose it. */
export interface ToolInfo {
  readonly name: string;
  readonly plugin: string;
  readonly title?: string;
  readonly description: string;
  readonly category: ToolCategory;
  readonly annotations: ToolAnnotations;
  /** False when its plugin is missing a setting; calls answer `unavailable`. */
  readonly available: boolean;
  /** Set when the tool may run as a task (MCP tasks, `Prefer: respond-async`). */
  readonly task?: "optional";
  /** The task deadline the tool declares (`task: { support, deadline }`), in milliseconds; hosts' settings win. */
  readonly taskDeadlineMs?: number;
  /** The plugin view that shows its result (MCP Apps). */
  readonly view?: string;
  /** Who may see it, when the tool says (`["app"]`: a view-only tool, hidden from the model). */
  readonly visibility?: ReadonlyArray<ToolVisibility>;
}

/** One tool described in full. */
export interface ToolDescription extends ToolInfo {
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  readonly examples: ReadonlyArray<ToolExample<unknown>>;
  readonly policy: RegisteredTool["policy"];
  /** Set when the input schema cannot be expressed for the requested target (inputSchema is then a stub). */
  readonly schemaError?: string;
}

/** A registered plugin and its state. */
export interface PluginInfo {
  readonly id: string;
  readonly version: string;
  readonly description?: string;
  readonly status: "ready" | "unconfigured";
  /** Why it is unconfigured, and the variables that would fix it. */
  readonly message?: string;
  readonly missing: ReadonlyArray<string>;
  readonly tools: ReadonlyArray<string>;
  /** The reserved slots the plugin fills (instructions, alias sets, resources, prompts, views); absent when none. */
  readonly slots?: PluginSlots;
  /**
   * Why the plugin's last `setup` failed (its tools answer `unavailable` and the next call tries
   * again); absent before setup first runs and once a setup succeeds.
   */
  readonly setupError?: string;
}

/** A provider-ready tool definition. */
export interface ProviderToolSchema {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/** The catalog: registered plugins, their tools, and the runtime that calls them. */
export interface Catalog {
  /** Registers a plugin; `options` are its settings (they win over environment variables). */
  register(plugin: AnyPlugin, options?: Readonly<Record<string, unknown>>): PluginInfo;
  /** Removes a plugin and its tools. */
  unregister(pluginId: string): boolean;
  plugins(): ReadonlyArray<PluginInfo>;
  list(): ReadonlyArray<ToolInfo>;
  has(name: string): boolean;
  describe(name: string, target?: SchemaTarget): ToolDescription | undefined;
  /** Calls a tool; always resolves with an envelope, never rejects. */
  call(name: string, input: unknown, options?: CallOptions): Promise<ToolResult>;
  /** Runs several calls at once (at most `concurrency` together); one envelope each, in order. */
  callMany(
    calls: ReadonlyArray<BatchCall>,
    options?: { readonly concurrency?: number },
  ): Promise<ReadonlyArray<ToolResult>>;
  /** Tool definitions in a provider's format. */
  schemas(target: SchemaTarget): ReadonlyArray<ProviderToolSchema>;
  /** Tools left out of `schemas(target)` because their input cannot be expressed for that provider, and why. */
  schemaErrors(target: SchemaTarget): ReadonlyArray<{ readonly tool: string; readonly message: string }>;
  /** The whole catalog as data: plugins, tools with schemas, categories and capabilities. */
  export(target?: SchemaTarget): CatalogExport;
  /** The plugins' resources at fixed URIs (MCP `resources/list`). */
  resources(): ReadonlyArray<ResourceInfo>;
  /** The plugins' resource templates (MCP `resources/templates/list`). */
  resourceTemplates(): ReadonlyArray<ResourceTemplateInfo>;
  /** The plugins' prompts (MCP `prompts/list`). */
  prompts(): ReadonlyArray<PromptInfo>;
  /**
   * Reads a resource by URI (a fixed one, or one a template names) under the caller's identity and
   * the plugin's policies; never rejects (an unknown URI is `not_found`).
   */
  readResource(uri: string, options?: SlotCallOptions): Promise<SlotAnswer<ReadonlyArray<ResourceContents>>>;
  /** A prompt's messages for `args`; never rejects. */
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    options?: SlotCallOptions,
  ): Promise<SlotAnswer<PromptAnswer>>;
  /** Values for a prompt argument or a template variable starting with `value` (empty when it completes nothing). */
  complete(
    target: CompletionTarget,
    value: string,
    options?: SlotCallOptions,
  ): Promise<SlotAnswer<ReadonlyArray<string>>>;
  /** Calls, successes, failures by kind, latency quantiles, cache hit rate and breaker state per tool. */
  stats(): Promise<ReadonlyArray<ToolStats>>;
  /** The raw metric snapshot (for a Prometheus endpoint). */
  metrics(): Promise<ReadonlyArray<Metric.Metric.Snapshot>>;
  /** Runs a plugin's health check (or reports its configuration state). */
  health(pluginId: string, signal?: AbortSignal): Promise<HealthReport>;
  /**
   * A registered plugin's validated settings and what its `setup` opened (running setup if it has not
   * run yet): what a plugin command works with. Rejects when the plugin is unknown, unconfigured
   * (the message names the variables to set) or its setup fails.
   */
  open(pluginId: string): Promise<{ readonly config: unknown; readonly resources: unknown }>;
  /** Throws, naming each, when an alias stands for a tool that is not registered. */
  checkAliases(): void;
  /** Notified when tools are added or removed. */
  onChange(listener: () => void): () => void;
  /**
   * Listens to the plugins' resource changes (their `watchResources`: one resource's contents, or a
   * plugin's list when `uri` is absent), including changes made by other processes; the watchers run
   * only while someone listens. Returns how to stop listening.
   */
  onResourceChange(listener: ResourceChangeListener): () => void;
  /** Releases the runtime, the HTTP pools and every plugin's resources. */
  close(): Promise<void>;
}

/** The catalog as exported data. */
export interface CatalogExport {
  readonly plugins: ReadonlyArray<PluginInfo>;
  readonly categories: ReadonlyArray<string>;
  readonly tools: ReadonlyArray<ToolDescription>;
}
