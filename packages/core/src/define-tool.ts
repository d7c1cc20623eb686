import type * as Clock from "effect/Clock";
import type * as Effect from "effect/Effect";
import type { Caller, CallInfo } from "./caller.js";
import type { DurationInput } from "./duration.js";
import type { ContentPart, ToolResult } from "./envelope.js";
import type { ToolFailure } from "./errors.js";
import type { HttpClient } from "./http/index.js";
import type { ToolTaskSupport } from "./plugin-slots.js";
import type { SchemaInput, SchemaOutput, ToolSchema } from "./schema/standard-schema.js";

/** What kind of capability a tool offers; hosts group and rank tools by it. */
export type ToolCategory =
  | "specialized_model"
  | "scientific_database"
  | "private_repository"
  | "computational_service"
  | "web_search"
  | "documentation"
  | "course_material"
  | "education"
  | "discovery"
  | (string & {});

/** MCP tool annotations. A `destructive` tool runs only after its preview is confirmed. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  /** Calling twice with the same input has no further effect; only idempotent tools are retried. */
  readonly idempotent?: boolean;
  /** The tool reaches outside the host (a web API). */
  readonly openWorld?: boolean;
}

/** Retry policy: exponential backoff with jitter, for retryable failures of idempotent tools only. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  readonly times?: number;
  /** First backoff delay (default 200ms); doubles each retry. */
  readonly base?: DurationInput;
  /** Upper bound on the total time spent retrying (default: the timeout). */
  readonly maxElapsed?: DurationInput;
}

/** Cache policy: successful results kept for `ttl`; identical concurrent calls share one execution. */
export interface CachePolicy {
  readonly ttl: DurationInput;
  /** Entries kept per tool (default 1,000). */
  readonly capacity?: number;
}

/** Rate limit policy (effect/persistence RateLimiter). */
export interface RateLimitPolicy {
  /** Tools sharing a key share the limit (default: the plugin id). */
  readonly key?: string;
  readonly limit: number;
  readonly window: DurationInput;
  /** Count each principal separately (default false: one budget for the upstream key). */
  readonly perPrincipal?: boolean;
  /** "fail" answers rate_limited at once with retryAfterMs (default); "delay" waits for a slot. */
  readonly onExceeded?: "fail" | "delay";
}

/** Circuit breaker policy (effect/persistence CircuitBreaker). */
export interface BreakerPolicy {
  /** Tools sharing a key share the circuit (default: the plugin id). */
  readonly key?: string;
  /** Consecutive upstream failures that open the circuit (default 5). */
  readonly failures?: number;
  /** How long the circuit stays open before a probe (default 30s). */
  readonly openFor?: DurationInput;
}

/** What to do when the tool still fails after retries. */
export interface FallbackPolicy {
  /** Call this tool (same input) instead. */
  readonly tool?: string;
  /** Serve the last successful result for the same input and caller, marked stale. */
  readonly stale?: boolean;
  /** Guidance for the model when nothing else is available. */
  readonly guidance?: string;
}

/** The policies wrapped around a tool's run; declared by the tool, overridable per host. */
export interface ToolPolicy {
  readonly timeout?: DurationInput;
  readonly retry?: RetryPolicy | false;
  readonly cache?: CachePolicy | false;
  /** One limit, or several that all apply (a per-minute and a per-day budget of one upstream key). */
  readonly rateLimit?: RateLimitPolicy | ReadonlyArray<RateLimitPolicy> | false;
  readonly breaker?: BreakerPolicy | false;
  readonly fallback?: FallbackPolicy;
  /** Largest serialised output the model receives; longer data is truncated and says so. */
  readonly maxOutputChars?: number;
  /** Consecutive failures in one session after which `escalate` is set (default 2). */
  readonly escalateAfter?: number;
}

/** Progress of a long call, forwarded to MCP progress notifications and CLI progress bars. */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Severity of a log line a tool sends its caller (the MCP / syslog levels). */
export type ToolLogLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** One log line of a running tool, for its caller (an MCP client gets `notifications/message`). */
export interface ToolLogEntry {
  readonly level: ToolLogLevel;
  readonly message: string;
  /** Structured detail; never a secret. */
  readonly data?: unknown;
}

/**
 * Requests a tool may make of the caller's client, present only when the client offers them (an MCP
 * client that declared `sampling` or `elicitation`). Params and results are MCP's own
 * (`sampling/createMessage`, `elicitation/create`); a rejected promise means the client refused or failed.
 */
export interface ClientRequests {
  /** Asks the client's model for a completion (MCP `sampling/createMessage` params). */
  readonly sample?: (params: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;
  /** Asks the user for input through the client (MCP `elicitation/create` params). */
  readonly elicit?: (params: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;
}

/** What a tool's `run` receives besides its input. */
export interface ToolContext<Config = unknown, Resources = unknown> {
  /** Which call this is: id, tool, plugin and attempt. */
  readonly call: CallInfo;
  /** Who is calling: principal, groups, OAuth client and scopes, session. */
  readonly caller: Caller;
  /** Aborted on timeout, cancellation or shutdown: pass it to every upstream request. */
  readonly signal: AbortSignal;
  /** The plugin's validated configuration (secrets as Redacted). */
  readonly config: Config;
  /** What the plugin's `setup` opened for this registration (undefined without a setup). */
  readonly resources: Resources;
  /** The shared HTTP client (pooled, size-limited, status mapped to error kinds, secrets redacted). */
  readonly http: HttpClient;
  /** Reports progress of a long call. */
  readonly progress: (progress: ToolProgress) => void;
  /** Sends a log line to the caller (MCP `notifications/message`, at the level the client set); a no-op when nobody listens. */
  readonly log: (level: ToolLogLevel, message: string, data?: unknown) => void;
  /** What the caller's client can do for the tool (sampling, elicitation); empty when it offers nothing. */
  readonly client: ClientRequests;
  /** Keeps what has been found so far; a timeout returns it as partial data. */
  readonly reportPartial: (data: unknown) => void;
  /** Calls another tool of the same catalog, with the same session (the caller's principal included). */
  readonly callTool: (name: string, input: unknown) => Promise<ToolResult>;
  /** Whether the catalog has a tool of that name (an optional companion plugin). */
  readonly hasTool: (name: string) => boolean;
  /**
   * The catalog's clock (Effect's `Clock`; a `TestClock` in tests): read time and wait on it, e.g.
   * `Effect.provideService(effect, Clock.Clock, ctx.clock)` for a `Schedule`, so a test moves time
   * instead of sleeping.
   */
  readonly clock: Clock.Clock;
}

const outcomeMarker = Symbol.for("@quiver/core/ToolOutcome");

/** A run result with more to say than the data: partial status, message, instruction, source. */
export interface ToolOutcome<O> {
  readonly [outcomeMarker]: true;
  readonly data: O;
  readonly partial?: boolean;
  readonly message?: string;
  readonly instruction?: string;
  readonly source?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Media besides the data (images, audio, embedded resources); lands in the envelope's `metadata.content`. */
  readonly content?: ReadonlyArray<ContentPart>;
}

/**
 * Wraps run output with a message, instruction, source or extra metadata.
 *
 * @example
 * const answer = outcome({ results: [] }, { message: "Found 0 drugs", source: "openFDA drugsfda" })
 */
export const outcome = <O>(
  data: O,
  info: Omit<ToolOutcome<O>, typeof outcomeMarker | "data">,
): ToolOutcome<O> => ({
  [outcomeMarker]: true,
  data,
  ...info,
});

/** Marks run output as partial: usable, but not all that was asked for. */
export const partial = <O>(
  data: O,
  message: string,
  info: Omit<ToolOutcome<O>, typeof outcomeMarker | "data" | "partial" | "message"> = {},
): ToolOutcome<O> => outcome(data, { ...info, partial: true, message });

/** True for a value built by `outcome` or `partial`. */
export const isOutcome = (u: unknown): u is ToolOutcome<unknown> =>
  typeof u === "object" && u !== null && (u as Record<symbol, unknown>)[outcomeMarker] === true;

/** What `run` may return: the output (plain, in a Promise, or as an Effect), optionally as an outcome. */
export type RunResult<O> =
  | O
  | ToolOutcome<O>
  | Promise<O | ToolOutcome<O>>
  | Effect.Effect<O | ToolOutcome<O>, ToolFailure, never>;

/** One example call, shown in docs and exercised by the conformance suite. */
export interface ToolExample<I> {
  readonly input: I;
  readonly description?: string;
}

/**
 * How a context-injected parameter meets the model's own value.
 * - `override`: hidden from the model; the session value always wins (a plain session key means this).
 * - `default`: visible to the model; the session value fills the field only when the input lacks it
 *   (absent, `null` or a blank string), and only when the field's schema accepts that value.
 *
 * Use `default` when the tool should also work standalone and the model may name another value.
 *
 * @example
 * const mode: InjectMode = "default" // inject: { asignatura: { from: "asignatura", mode } }
 */
export type InjectMode = "override" | "default";

/**
 * A context-injected parameter with its mode; the long form of `inject: { field: "sessionKey" }`.
 *
 * Use it to pick `mode: "default"` (visible, filled only when left out).
 *
 * @example
 * const tenant: InjectSpec = { from: "principal" }
 * const subject: InjectSpec = { from: "subject", mode: "default" }
 */
export interface InjectSpec {
  /** The session value key it comes from (`"principal"` for the caller). */
  readonly from: string;
  /** `override` (the default) or `default`; see {@link InjectMode}. */
  readonly mode?: InjectMode;
}

/**
 * The input schema of a tool: an object schema of any Standard Schema library that exports JSON
 * Schema (`z.object(...)`, valibot's `toStandardJsonSchema(v.object(...))`, ArkType's `type({...})`).
 */
export type InputSchema = ToolSchema<Record<string, unknown>, Record<string, unknown>>;

/** The output schema of a tool: any Standard Schema that exports JSON Schema, or a zod schema. */
export type OutputSchema = ToolSchema;

/**
 * A tool as its author defines it. `input` and `output` are Standard Schemas (zod 4, valibot,
 * ArkType, effect Schema ...); the types of `run`, `examples` and `inject` are inferred from them.
 * Input repair and "did you mean" suggestions work for zod schemas only: other libraries' inputs
 * are validated, exported, injected and cached alike, and refused with their own issue messages.
 */
export interface ToolDefinition<
  I extends InputSchema,
  O extends OutputSchema,
  Config = unknown,
  Resources = unknown,
> {
  /** `^[a-zA-Z0-9_-]{1,64}$`: valid for OpenAI, Anthropic, Gemini and MCP. */
  readonly name: string;
  readonly title?: string;
  /** What it does and when to use it; the model reads this. */
  readonly description: string;
  readonly category: ToolCategory;
  readonly input: I;
  readonly output: O;
  readonly examples?: ReadonlyArray<ToolExample<SchemaInput<I>>>;
  readonly annotations?: ToolAnnotations;
  readonly policy?: ToolPolicy;
  /** Whether the tool may run as an MCP task (`optional`: a client may ask; reserved, not served yet). */
  readonly task?: ToolTaskSupport;
  /** The plugin view (`views[].name`) that shows this tool's result (MCP Apps; reserved, not served yet). */
  readonly view?: string;
  /** How the model should use successful data (summarise, cite ...). */
  readonly instruction?: string;
  /**
   * Context-injected parameters: input fields the host fills from the session (field → session key,
   * "principal" for the caller). A plain key, or `{ from: key }`, overrides: the field is left out of
   * the schema the model sees and the session value always wins. `{ from: key, mode: "default" }`
   * keeps the field visible and uses the session value only when the model left the field out.
   */
  readonly inject?: { readonly [K in keyof SchemaInput<I>]?: string | InjectSpec };
  /** For destructive tools: what the call would do, shown before confirmation. */
  readonly preview?: (input: SchemaOutput<I>, ctx: ToolContext<Config, Resources>) => unknown;
  readonly run: (input: SchemaOutput<I>, ctx: ToolContext<Config, Resources>) => RunResult<SchemaInput<O>>;
}

const toolMarker = Symbol.for("@quiver/core/Tool");
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A defined tool. */
export type Tool<
  I extends InputSchema = InputSchema,
  O extends OutputSchema = OutputSchema,
  Config = unknown,
  Resources = unknown,
> = ToolDefinition<I, O, Config, Resources> & { readonly [toolMarker]: true };

/** Any tool, whatever its types (for lists of tools). */
export type AnyTool = Tool<any, any, any, any>;

/** True for a value built by `defineTool` (from any copy of @quiver/core). */
export const isTool = (u: unknown): u is AnyTool =>
  typeof u === "object" && u !== null && (u as Record<symbol, unknown>)[toolMarker] === true;

/**
 * Defines a tool: input and output schemas, description, category, examples, annotations and
 * policies. `run` receives the parsed input; it may return a value, a Promise or an Effect, and may
 * fail by throwing a `ToolFailure` (anything else thrown becomes an `internal` error).
 *
 * The schemas may come from any Standard Schema library that exports JSON Schema: zod 4 (with
 * Quiver's zod-only extras: repair of common model mistakes, "did you mean" for a near-miss field,
 * corrected-call suggestions), valibot through `toStandardJsonSchema` of `@valibot/to-json-schema`,
 * ArkType, effect Schema. Every library gets validation, JSON Schema for each provider, `inject`
 * and the result cache; a non-zod schema's invalid input is refused with its own issue messages.
 *
 * @example
 * export const echo = defineTool({
 *   name: "echo", description: "Echoes text. Use to test the connection.", category: "computational_service",
 *   input: z.object({ text: z.string().describe("Text to echo") }),
 *   output: z.object({ text: z.string() }),
 *   run: ({ text }) => ({ text }),
 * })
 */
export const defineTool = <
  I extends InputSchema,
  O extends OutputSchema,
  Config = unknown,
  Resources = unknown,
>(
  definition: ToolDefinition<I, O, Config, Resources>,
): Tool<I, O, Config, Resources> => {
  if (!NAME.test(definition.name)) {
    throw new TypeError(
      `Tool name "${definition.name}" must match ${NAME} (OpenAI, Anthropic, Gemini and MCP accept only that).`,
    );
  }
  if (definition.description.trim().length === 0)
    throw new TypeError(`Tool "${definition.name}" needs a description.`);
  return { ...definition, [toolMarker]: true };
};

/**
 * `defineTool` with the plugin's config (and setup resources) types fixed, so `ctx.config` and
 * `ctx.resources` are typed.
 *
 * @example
 * const fdaTool = defineToolWith<{ readonly baseUrl: string }>()
 * const showBaseUrl = fdaTool({
 *   name: "fda_base_url", description: "Shows the openFDA URL in use.", category: "scientific_database",
 *   input: z.object({}), output: z.object({ url: z.string() }),
 *   run: (_input, ctx) => ({ url: ctx.config.baseUrl }),
 * })
 */
export const defineToolWith =
  <Config, Resources = unknown>() =>
  <I extends InputSchema, O extends OutputSchema>(
    definition: ToolDefinition<I, O, Config, Resources>,
  ): Tool<I, O, Config, Resources> =>
    defineTool(definition);
