import type { Catalog, ToolInfo } from "@quiver/core";
import { exportTools, type SchemaErrorHandler } from "./internal/provider-schemas.js";

/** A Chat Completions tool definition. */
export interface OpenAIChatTool {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Record<string, unknown>;
    readonly strict: boolean;
  };
}

/** A Responses API tool definition (the flat form). */
export interface OpenAIResponsesTool {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  readonly strict: boolean;
}

/** Options of `toOpenAITools`. */
export interface OpenAIToolsOptions {
  /** Which tools to offer (default: all). */
  readonly filter?: (tool: ToolInfo) => boolean;
  /**
   * Called for a tool whose schema has no strict-mode form (an untyped field); it is sent with
   * `strict: false` and its plain JSON Schema instead of failing the whole list.
   */
  readonly onSchemaError?: SchemaErrorHandler;
}

/**
 * The catalog's tools as OpenAI Chat Completions tool definitions in strict mode: every object
 * closed and fully required, optional fields nullable (the catalog's "openai" schema export; the
 * runtime turns the model's nulls back into absent fields).
 *
 * Use it for `openai.chat.completions.create({ tools })`; answer the calls with `createDispatcher`.
 *
 * @example
 * const tools = toOpenAITools(catalog);
 * const res = await openai.chat.completions.create({ model, messages, tools });
 * const { message } = res.choices[0]!;
 * messages.push(message, ...(await dispatcher.dispatchAll(message.tool_calls ?? [])));
 */
export const toOpenAITools = (catalog: Catalog, options: OpenAIToolsOptions = {}): OpenAIChatTool[] =>
  exportTools(catalog, "openai", options.filter, options.onSchemaError).map(
    ({ info, parameters, strict }) => ({
      type: "function",
      function: { name: info.name, description: info.description, parameters, strict },
    }),
  );

/**
 * The catalog's tools as OpenAI Responses API tool definitions (`{ type, name, description,
 * parameters, strict }`), strict mode as in `toOpenAITools`.
 *
 * @example
 * const res = await openai.responses.create({ model, input, tools: toOpenAIResponsesTools(catalog) });
 */
export const toOpenAIResponsesTools = (
  catalog: Catalog,
  options: OpenAIToolsOptions = {},
): OpenAIResponsesTool[] =>
  toOpenAITools(catalog, options).map(({ function: f }) => ({ type: "function", ...f }));
