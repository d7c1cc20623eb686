import { Context, Effect, Exit, Fiber, Layer, ManagedRuntime, Metric, Scope } from "effect";
import { CircuitBreaker, RateLimiter } from "effect/persistence";
import { z } from "zod";
import { type AnyPlugin, type HealthReport, resolvePluginConfig } from "./define-plugin.js";
import type { AnyTool, ToolAnnotations, ToolCategory, ToolExample, ToolPolicy } from "./define-tool.js";
import type { ToolResult } from "./envelope.js";
import { fail } from "./errors.js";
import { createHttpClient, type HttpClient } from "./http/index.js";
import { makeBreaker } from "./policies/breaker-policy.js";
import { resolvePolicy } from "./policies/resolve-policy.js";
import { callConcurrently } from "./runtime/call-many.js";
import { CallState, CurrentCall } from "./runtime/call-state.js";
import { ConfirmationStore } from "./runtime/confirmations.js";
import { buildEnvelope } from "./runtime/envelope-builder.js";
import {
  type CallOptions,
  CONFIRMATION_FIELD,
  type ExecutorDeps,
  prepareCall,
} from "./runtime/execute-tool.js";
import { hiddenFields } from "./runtime/injected-fields.js";
import { summarise, type ToolStats } from "./runtime/metrics.js";
import { PluginResources } from "./runtime/plugin-resources.js";
import type { RegisteredTool } from "./runtime/registered-tool.js";
import { SessionTracker } from "./runtime/session-tracker.js";
import { StaleStore } from "./runtime/stale-store.js";
import { toolAliases } from "./runtime/tool-aliases.js";
import { buildPipeline } from "./runtime/tool-pipeline.js";
import { closestMatches } from "./schema/edit-distance.js";
import { toJsonSchema } from "./schema/json-schema.js";
import type { SchemaTarget } from "./schema/json-schema-types.js";

/** Options of a catalog: the world it runs in and the host's overrides. */
export interface CatalogOptions {
  /** The HTTP client tools use (default: a new pooled undici client, closed with the catalog). */
  readonly http?: HttpClient;
  /** Environment for plugin settings (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Per-tool policy overrides by tool name; `"*"` applies to every tool. */
  readonly policies?: Readonly<Record<string, ToolPolicy>>;
  /**
   * Stores for rate limits and breakers (default: in memory). Pass Redis layers from
   * effect/persistence to share them between host replicas.
   */
  readonly stores?: Layer.Layer<RateLimiter.RateLimiterStore | CircuitBreaker.CircuitBreakerStore>;
  /** Extra services for every call, e.g. an OpenTelemetry tracer layer. */
  readonly layer?: Layer.Layer<never>;
  /**
   * Other names for tools, `{ alias: toolName }`: each alias is listed as a tool of its own and calls
   * the tool it stands for. An alias that is a registered tool's name makes `register` throw; call
   * `checkAliases()` once the plugins are registered to catch aliases of missing tools.
   */
  readonly aliases?: Readonly<Record<string, string>>;
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
}

/** A call in `callMany`. */
export interface ToolCall {
  readonly name: string;
  readonly input: unknown;
  readonly options?: CallOptions;
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
    calls: ReadonlyArray<ToolCall>,
    options?: { readonly concurrency?: number },
  ): Promise<ReadonlyArray<ToolResult>>;
  /** Tool definitions in a provider's format. */
  schemas(target: SchemaTarget): ReadonlyArray<ProviderToolSchema>;
  /** Tools left out of `schemas(target)` because their input cannot be expressed for that provider, and why. */
  schemaErrors(target: SchemaTarget): ReadonlyArray<{ readonly tool: string; readonly message: string }>;
  /** The whole catalog as data: plugins, tools with schemas, categories and capabilities. */
  export(target?: SchemaTarget): CatalogExport;
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
  /** Releases the runtime, the HTTP pools and every plugin's resources. */
  close(): Promise<void>;
}

/** The catalog as exported data. */
export interface CatalogExport {
  readonly plugins: ReadonlyArray<PluginInfo>;
  readonly categories: ReadonlyArray<string>;
  readonly tools: ReadonlyArray<ToolDescription>;
}

const SCHEMA_TARGETS: ReadonlyArray<SchemaTarget> = ["mcp", "openai", "anthropic", "gemini"];

/**
 * Creates a catalog: register plugins, then list, describe and call their tools by name.
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(fdaPlugin)
 * const result = await catalog.call("fda_search_drugs", { search_criteria: { active_ingredient: "imatinib" } })
 */
export const createCatalog = (options: CatalogOptions = {}): Catalog => {
  const ownsHttp = options.http === undefined;
  const http = options.http ?? createHttpClient();
  const stores =
    options.stores ?? Layer.mergeAll(RateLimiter.layerStoreMemory, CircuitBreaker.layerStoreMemory());
  const layer = Layer.mergeAll(
    RateLimiter.layer,
    Layer.succeed(Metric.MetricRegistry, new Map()),
    options.layer ?? Layer.empty,
  ).pipe(Layer.provideMerge(stores));
  const runtime = ManagedRuntime.make(layer);
  const scope = Scope.makeUnsafe();
  const tools = new Map<string, RegisteredTool>();
  const aliases = toolAliases(options.aliases);
  /** The registered tool a name (or an alias) stands for. */
  const lookup = (name: string): RegisteredTool | undefined => {
    const found = tools.get(name);
    if (found) return found;
    const target = aliases.target(name);
    return target === undefined ? undefined : tools.get(target);
  };
  /** The aliases whose tool is registered, with that tool. */
  const liveAliases = () =>
    aliases.entries.flatMap(([alias, target]) => {
      const reg = tools.get(target);
      return reg ? [{ alias, reg }] : [];
    });
  const env = options.env ?? process.env;
  const plugins = new Map<
    string,
    { plugin: AnyPlugin; info: PluginInfo; config: unknown; resources: PluginResources }
  >();
  const breakers = new Map<string, CircuitBreaker.CircuitBreaker>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of listeners) l();
  };

  const deps: ExecutorDeps = {
    http,
    confirmations: new ConfirmationStore(),
    sessions: new SessionTracker(),
    stale: new StaleStore(),
    callTool: (name, input, callOptions) => call(name, input, callOptions),
    hasTool: (name) => lookup(name) !== undefined,
  };

  const breakerFor = (policy: NonNullable<RegisteredTool["policy"]["breaker"]>) => {
    const id = `${policy.key}|${policy.failures}|${policy.openForMs}`;
    let breaker = breakers.get(id);
    if (!breaker) {
      breaker = runtime.runSync(makeBreaker(policy, scope));
      breakers.set(id, breaker);
    }
    return breaker;
  };

  const register = (plugin: AnyPlugin, pluginOptions: Readonly<Record<string, unknown>> = {}): PluginInfo => {
    aliases.checkTools(
      plugin.id,
      plugin.tools.map((t: AnyTool) => t.name),
    );
    if (plugins.has(plugin.id)) unregister(plugin.id);
    const resolved = resolvePluginConfig(plugin, pluginOptions, env);
    const resources = new PluginResources(plugin, resolved.ok ? resolved.config : undefined, http, env);
    const names: string[] = [];
    for (const tool of plugin.tools) {
      const name = tools.has(tool.name) ? `${plugin.id}_${tool.name}`.slice(0, 64) : tool.name;
      const policy = resolvePolicy(plugin.id, tool.annotations, tool.policy, {
        ...options.policies?.["*"],
        ...options.policies?.[tool.name],
        ...options.policies?.[name],
      });
      tools.set(name, {
        name,
        tool,
        pluginId: plugin.id,
        pluginVersion: plugin.version,
        policy,
        config: resolved.ok
          ? { ok: true, value: resolved.config }
          : { ok: false, message: resolved.message, missing: resolved.missing },
        secrets: resolved.ok ? resolved.secrets : [],
        resources,
        breaker: policy.breaker ? breakerFor(policy.breaker) : undefined,
        pipeline: undefined,
      });
      names.push(name);
    }
    const info: PluginInfo = {
      id: plugin.id,
      version: plugin.version,
      ...(plugin.description ? { description: plugin.description } : {}),
      status: resolved.ok ? "ready" : "unconfigured",
      ...(resolved.ok ? {} : { message: resolved.message }),
      missing: resolved.ok ? [] : resolved.missing,
      tools: names,
    };
    plugins.set(plugin.id, { plugin, info, config: resolved.ok ? resolved.config : undefined, resources });
    notify();
    return info;
  };

  const unregister = (pluginId: string): boolean => {
    const entry = plugins.get(pluginId);
    if (!entry) return false;
    for (const name of entry.info.tools) {
      tools.delete(name);
      for (const target of SCHEMA_TARGETS) schemaCache.delete(`${target}\u0000${name}`);
    }
    plugins.delete(pluginId);
    notify();
    // Release what the registration opened (a bridged MCP server's process, open files); never throws.
    void entry.resources.close();
    return true;
  };

  const info = (reg: RegisteredTool): ToolInfo => ({
    name: reg.name,
    plugin: reg.pluginId,
    ...(reg.tool.title ? { title: reg.tool.title } : {}),
    description: reg.tool.description,
    category: reg.tool.category,
    annotations: reg.tool.annotations ?? {},
    available: reg.config.ok,
  });

  // Exported schemas are pure functions of the tool and the target: computed once, kept until unregister.
  const schemaCache = new Map<string, { schema: Record<string, unknown> } | { error: string }>();
  const modelSchemaResult = (reg: RegisteredTool, target: SchemaTarget) => {
    const key = `${target}\u0000${reg.name}`;
    let entry = schemaCache.get(key);
    if (!entry) {
      try {
        entry = { schema: modelSchema(reg, target) };
      } catch (error) {
        entry = { error: error instanceof Error ? error.message : String(error) };
      }
      schemaCache.set(key, entry);
    }
    return entry;
  };

  const modelSchema = (reg: RegisteredTool, target: SchemaTarget) => {
    let schema = reg.tool.input;
    if (reg.tool.annotations?.destructive) {
      schema = schema.extend({
        [CONFIRMATION_FIELD]: z
          .string()
          .optional()
          .describe("The token from this tool's preview; send it only after the user confirmed the action."),
      });
    }
    return toJsonSchema(schema, target, { omit: hiddenFields(reg.tool) });
  };

  const describe = (name: string, target: SchemaTarget = "mcp"): ToolDescription | undefined => {
    const reg = lookup(name);
    if (!reg) return undefined;
    const exported = modelSchemaResult(reg, target);
    return {
      ...info(reg),
      name,
      inputSchema:
        "schema" in exported
          ? exported.schema
          : {
              type: "object",
              description: `This tool's input schema cannot be expressed for ${target}: ${exported.error}`,
            },
      ...("error" in exported ? { schemaError: exported.error } : {}),
      outputSchema: z.toJSONSchema(reg.tool.output, {
        target: "draft-2020-12",
        io: "output",
        unrepresentable: "any",
      }) as Record<string, unknown>,
      examples: reg.tool.examples ?? [],
      policy: reg.policy,
    };
  };

  const unknownTool = (name: string): ToolResult => {
    const close = closestMatches([...tools.keys(), ...liveAliases().map((a) => a.alias)], name, { limit: 3 });
    const failure = fail.invalidInput(`There is no tool named "${name}".`, {
      suggestion:
        close.length > 0
          ? `Did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`
          : "No tools are registered.",
    });
    return {
      status: "error",
      message: failure.message,
      error: { kind: "invalid_input", message: failure.message, retryable: false },
      ...(failure.suggestion ? { suggestion: failure.suggestion } : {}),
      metadata: {
        tool: name,
        plugin: "",
        callId: "",
        durationMs: 0,
        attempts: 0,
        cached: false,
        truncated: false,
      },
    };
  };

  // Calls run as fibers on the runtime's context directly (not through `runtime.runPromiseExit`,
  // which also ties each fiber into the runtime's scope); `close` interrupts the ones in flight.
  const inflight = new Set<Fiber.Fiber<ToolResult>>();

  /** The envelope when the runtime itself could not run the call (closed, defect, cancelled). */
  const runtimeFailure = (reg: RegisteredTool, started: number, callOptions: CallOptions): ToolResult =>
    buildEnvelope(
      {
        reg,
        callId: "",
        durationMs: performance.now() - started,
        failure: callOptions.signal?.aborted
          ? fail.unavailable(`${reg.name} was cancelled by the caller before it finished.`, {
              retryable: true,
            })
          : fail.internal(`${reg.name} could not be run by the runtime.`),
      },
      deps,
      callOptions.session ?? {},
    );

  const start = (
    context: Context.Context<never>,
    reg: RegisteredTool,
    input: unknown,
    callOptions: CallOptions,
    started: number,
  ): ToolResult | Promise<ToolResult> => {
    reg.pipeline ??= buildPipeline(reg, context, deps);
    const pipeline = reg.pipeline;
    const prepared = prepareCall(reg, pipeline, input, callOptions, deps, started);
    const signal = callOptions.signal;
    let fiber: Fiber.Fiber<ToolResult>;
    if (prepared instanceof CallState) {
      const program = pipeline.traced
        ? Effect.withSpan(pipeline.run, "quiver.tool.call", {
            attributes: {
              "quiver.tool": reg.name,
              "quiver.plugin": reg.pluginId,
              "quiver.call_id": prepared.callId,
            },
            captureStackTrace: false,
          })
        : pipeline.run;
      fiber = Effect.runForkWith(Context.add(context, CurrentCall, prepared))(
        program,
        signal ? { signal } : undefined,
      );
    } else if (Effect.isEffect(prepared)) {
      fiber = Effect.runForkWith(context)(prepared, signal ? { signal } : undefined);
    } else return prepared;
    const answer = (exit: Exit.Exit<ToolResult>) =>
      Exit.isSuccess(exit) ? exit.value : runtimeFailure(reg, started, callOptions);
    const done = fiber.pollUnsafe();
    if (done) return answer(done);
    return new Promise<ToolResult>((resolve) => {
      inflight.add(fiber);
      fiber.addObserver((exit) => {
        inflight.delete(fiber);
        resolve(answer(exit));
      });
    });
  };

  const call = (name: string, input: unknown, callOptions: CallOptions = {}): Promise<ToolResult> => {
    const reg = lookup(name);
    if (!reg) return Promise.resolve(unknownTool(name));
    const started = performance.now();
    const context = runtime.cachedContext as Context.Context<never> | undefined;
    try {
      if (context) return Promise.resolve(start(context, reg, input, callOptions, started));
    } catch {
      return Promise.resolve(runtimeFailure(reg, started, callOptions));
    }
    // The runtime's layer is still being built (or the catalog is closed).
    return runtime
      .context()
      .then(
        (built) => start(built as Context.Context<never>, reg, input, callOptions, started),
        () => runtimeFailure(reg, started, callOptions),
      )
      .catch(() => runtimeFailure(reg, started, callOptions));
  };

  const callMany = (calls: ReadonlyArray<ToolCall>, opts: { readonly concurrency?: number } = {}) =>
    callConcurrently(call, calls, opts);

  const stats = async () => {
    const snapshot = await runtime.runPromise(Metric.snapshot);
    const figures = summarise(snapshot);
    const out: ToolStats[] = [];
    for (const reg of tools.values()) {
      const s = figures.find((f) => f.tool === reg.name) ?? {
        tool: reg.name,
        plugin: reg.pluginId,
        calls: 0,
        successes: 0,
        failures: 0,
        failuresByKind: {},
        p50Ms: undefined,
        p95Ms: undefined,
        cacheHitRate: undefined,
      };
      if (reg.breaker && reg.policy.breaker) {
        const state = await runtime.runPromise(
          Effect.orElseSucceed(reg.breaker.state(reg.policy.breaker.key), () => undefined),
        );
        out.push(state ? { ...s, breaker: state._tag } : s);
      } else out.push(s);
    }
    return out;
  };

  const health = async (pluginId: string, signal?: AbortSignal): Promise<HealthReport> => {
    const entry = plugins.get(pluginId);
    if (!entry) return { ok: false, message: `No plugin "${pluginId}" is registered.` };
    if (entry.info.status === "unconfigured") {
      return {
        ok: false,
        message: entry.info.message ?? "Not configured.",
        fix: `Set ${entry.info.missing.join(", ")}.`,
      };
    }
    if (!entry.plugin.health && !entry.plugin.setup)
      return { ok: true, message: "Loaded (no health check declared)." };
    const started = performance.now();
    try {
      const resources = await entry.resources.open();
      if (!entry.plugin.health) return { ok: true, message: "Set up (no health check declared)." };
      const report = await entry.plugin.health({
        config: entry.config,
        resources,
        http,
        signal: signal ?? AbortSignal.timeout(10_000),
      });
      return { latencyMs: Math.round(performance.now() - started), ...report };
    } catch (error) {
      return {
        ok: false,
        message: `Health check failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  };

  const open = async (pluginId: string) => {
    const entry = plugins.get(pluginId);
    if (!entry) throw new Error(`No plugin "${pluginId}" is registered.`);
    if (entry.info.status === "unconfigured") throw new Error(entry.info.message ?? "Not configured.");
    return { config: entry.config, resources: await entry.resources.open() };
  };

  const exportCatalog = (target: SchemaTarget = "mcp"): CatalogExport => {
    const described = [...tools.keys(), ...liveAliases().map((a) => a.alias)].map(
      (n) => describe(n, target)!,
    );
    return {
      plugins: [...plugins.values()].map((p) => p.info),
      categories: [...new Set(described.map((t) => t.category))].sort(),
      tools: described,
    };
  };

  return {
    register,
    unregister,
    plugins: () => [...plugins.values()].map((p) => p.info),
    list: () => [
      ...[...tools.values()].map(info),
      ...liveAliases().map(({ alias, reg }) => ({ ...info(reg), name: alias })),
    ],
    has: (name) => lookup(name) !== undefined,
    describe,
    call,
    callMany,
    schemas: (target) =>
      [
        ...[...tools.values()].map((reg) => ({ name: reg.name, reg })),
        ...liveAliases().map((a) => ({ name: a.alias, reg: a.reg })),
      ].flatMap(({ name, reg }) => {
        const exported = modelSchemaResult(reg, target);
        return "schema" in exported
          ? [{ name, description: reg.tool.description, parameters: exported.schema }]
          : [];
      }),
    schemaErrors: (target) =>
      [...tools.values()].flatMap((reg) => {
        const exported = modelSchemaResult(reg, target);
        return "error" in exported ? [{ tool: reg.name, message: exported.error }] : [];
      }),
    export: exportCatalog,
    stats,
    metrics: () => runtime.runPromise(Metric.snapshot),
    health,
    open,
    checkAliases: () => aliases.checkTargets((name) => tools.has(name)),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      // Calls in flight end first (interrupted, their upstream requests aborted), then what the
      // plugins opened is closed: a call never sees its index or connection closed under it.
      await Effect.runPromise(Fiber.interruptAll([...inflight]));
      for (const { resources } of plugins.values()) await resources.close();
      await runtime.runPromise(Scope.close(scope, Exit.void));
      await runtime.dispose();
      if (ownsHttp) await http.close();
    },
  };
};

export type { AnyTool };
