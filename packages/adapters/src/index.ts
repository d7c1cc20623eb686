import pkg from "../package.json" with { type: "json" };

export { type AnthropicTool, type AnthropicToolsOptions, toAnthropicTools } from "./anthropic-tools.js";

export {
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  type AnthropicToolUse,
  createDispatcher,
  type DispatchAllResult,
  type DispatchedCall,
  type Dispatcher,
  type DispatcherOptions,
  type DispatchOptions,
  type OpenAIChatToolCall,
  type OpenAIFunctionCallOutput,
  type OpenAIResponsesToolCall,
  type OpenAIToolMessage,
  type ProviderToolCall,
} from "./dispatcher.js";
export { envelopeText } from "./envelope-text.js";
export {
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type OpenAIToolsOptions,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "./openai-tools.js";
export { type ResourceLink, readResourceLink, resourceLinks } from "./resource-links.js";
export {
  createToolTasks,
  type TaskPoll,
  type ToolTasks,
  type ToolTasksOptions,
} from "./tool-tasks.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
