import { type ToolTaskSupport, type ToolVisibility, taskSlotOf } from "./plugin-slots.js";
import type { SchemaInput, SchemaOutput, ToolSchema } from "./schema/standard-schema.js";
import type { ToolContext } from "./tool-context.js";
import type { RunResult } from "./tool-outcome.js";
import type { ToolPolicy } from "./tool-policy.js";

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
  /**
   * Whether the tool may run as a task (`optional`: a client may ask), and the task's own deadline:
   * `{ support: "optional", deadline: "10m" }`.
   */
  readonly task?: ToolTaskSupport;
  /** The plugin view (`views[].name`) that shows this tool's result (MCP Apps). */
  readonly view?: string;
  /** Who may see it (default both): `["app"]` for a tool only a view calls, hidden from the model. */
  readonly visibility?: ReadonlyArray<ToolVisibility>;
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
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A defined tool. */
export type Tool<
  I extends InputSchema = InputSchema,
  O extends OutputSchema = OutputSchema,
  Config = unknown,
  Resources = unknown,
> = ToolDefinition<I, O, Config, Resources> & { readonly [toolMarker]: true };

/** Any tool, whatever its types (for lists of tools). */
export type AnyTool = Tool<any, any, any, any>;

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
  if (!TOOL_NAME.test(definition.name))
    throw new TypeError(
      `Tool name "${definition.name}" must match ${TOOL_NAME} (OpenAI, Anthropic, Gemini and MCP accept only that).`,
    );
  if (definition.description.trim().length === 0)
    throw new TypeError(`Tool "${definition.name}" needs a description.`);
  try {
    taskSlotOf(definition.task);
  } catch (error) {
    throw new TypeError(`Tool "${definition.name}": ${(error as Error).message}`);
  }
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
