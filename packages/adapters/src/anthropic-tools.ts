import type { Catalog, ToolInfo } from "@quiver/core";
import { exportTools } from "./internal/provider-schemas.js";

/** An Anthropic Messages API tool definition. */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  /** The input's JSON Schema; `type: "object"`, as the Anthropic SDK's `Tool` requires. */
  readonly input_schema: { readonly type: "object"; readonly [key: string]: unknown };
}

/** Options of `toAnthropicTools`. */
export interface AnthropicToolsOptions {
  /** Which tools to offer (default: all). */
  readonly filter?: (tool: ToolInfo) => boolean;
}

/**
 * The catalog's tools as Anthropic tool definitions: JSON Schema 2020-12 with descriptions and
 * defaults kept (the catalog's "anthropic" export).
 *
 * Use it for `anthropic.messages.create({ tools })`; answer the `tool_use` blocks with `createDispatcher`.
 *
 * @example
 * import type Anthropic from "@anthropic-ai/sdk";
 * const messages: Anthropic.MessageParam[] = [{ role: "user", content: prompt }];
 * const res = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: toAnthropicTools(catalog) });
 * messages.push({ role: "assistant", content: res.content }, ...(await dispatcher.dispatchAll(res.content)));
 */
export const toAnthropicTools = (catalog: Catalog, options: AnthropicToolsOptions = {}): AnthropicTool[] =>
  exportTools(catalog, "anthropic", options.filter, undefined).map(({ info, parameters }) => ({
    name: info.name,
    description: info.description,
    input_schema: { ...parameters, type: "object" },
  }));
