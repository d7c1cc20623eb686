import pkg from "../package.json" with { type: "json" };

// The modules that are the contract itself (every export public: the catalog's, the envelope's, the
// error kinds', a tool context's, a policy's and a plugin capability's types, `defineTool`,
// `definePlugin`, the plugin settings and `parseToolInput`) are exported whole; the others name
// what is public.

export { CONFIRMATION_FIELD } from "./call/call-input.js";
export type { Caller, CallInfo } from "./caller.js";
export * from "./catalog/catalog-types.js";
export { createCatalog } from "./catalog/create-catalog.js";
export * from "./catalog/slot-types.js";
export * from "./define-plugin.js";
export * from "./define-tool.js";
export { createDemoContext, type DemoContextOptions } from "./demo-context.js";
export { type DurationInput, toMillis } from "./duration.js";
export * from "./envelope.js";
export * from "./error-kinds.js";
export { fail, ToolFailure, type ToolFailureProps } from "./errors.js";
export * from "./http/index.js";
export * from "./plugin-capabilities.js";
export { type PluginConfigResult, resolvePluginConfig } from "./plugin-config.js";
export * from "./plugin-settings.js";
export type {
  AliasSet,
  Completer,
  PluginPrompt,
  PluginResource,
  PluginResourceTemplate,
  PluginSlots,
  PluginView,
  PromptArgument,
  PromptMessage,
  ResourceChange,
  ResourceContents,
  ResourceDescriptor,
  ResourceWatcher,
  SlotContext,
  ToolAlias,
  ToolTaskOptions,
  ToolTaskSupport,
  ToolVisibility,
} from "./plugin-slots.js";
export { viewOnly } from "./plugin-slots.js";
export { DEFAULT_POLICY, type ResolvedPolicy, type ResolvedRateLimit } from "./policies/resolve-policy.js";
export { type BatchCall, callConcurrently } from "./runtime/call-many.js";
export * from "./runtime/call-types.js";
export type { RuntimeLog, RuntimeLogLevel } from "./runtime/runtime-log.js";
export type { ToolStats } from "./runtime/tool-stats.js";
export { type TraceCarrier, type TraceContext, traceContextOf } from "./runtime/trace-context.js";
export { matchTemplate } from "./runtime/uri-template.js";
export { type ClosestMatchesOptions, closestMatches, editDistance } from "./schema/edit-distance.js";
export type { ToolInputIssue } from "./schema/format-issues.js";
export { toJsonSchema } from "./schema/json-schema.js";
export type { JsonSchema, SchemaTarget, ToJsonSchemaOptions } from "./schema/json-schema-types.js";
export * from "./schema/repair.js";
export { SchemaExportError } from "./schema/schema-export-error.js";
export {
  isToolSchema,
  type SchemaInput,
  type SchemaOutput,
  type ToolSchema,
} from "./schema/standard-schema.js";
export { slug } from "./slug.js";
export { type MemoryDriverOptions, memoryDriver } from "./store/memory-driver.js";
export type { MaybePromise, StoreDriver, StoreStatus, Unsubscribe } from "./store/store-driver.js";
export { storeKey } from "./store/store-key.js";
export * from "./tool-context.js";
export { outcome, partial, type RunResult, type ToolOutcome } from "./tool-outcome.js";
export * from "./tool-policy.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
