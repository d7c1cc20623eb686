export {
  type ChatbotGuia,
  type ChatbotOption,
  type ChatbotQuestion,
  type ChatbotRagHit,
  type ChatbotRagResult,
  type ChatbotTest,
  type ChatbotTools,
  type ChatbotToolsOptions,
  createChatbotTools,
  toChatbotGuia,
  toChatbotGuiaText,
  toChatbotRagResult,
  toChatbotTest,
} from "./seeds/chatbot.js";
export {
  CO_SCIENTIST_TOOLS,
  createExternalToolExecutor,
  DEFAULT_TIMEOUT_SECONDS,
  type ExternalToolExecutor,
  type ExternalToolExecutorOptions,
  type ExternalToolRequest,
  type ExternalToolResponse,
  type ExternalToolStatus,
} from "./seeds/co-scientist.js";
export {
  type CodeAgentDocumentationResult,
  type CodeAgentTools,
  type CodeAgentToolsOptions,
  type CodeAgentWebSearchOptions,
  type CodeAgentWebSearchResult,
  createCodeAgentTools,
  toCodeAgentDocumentation,
  toCodeAgentWebSearch,
} from "./seeds/code-agent.js";
export type { SeedToolsOptions, ToolCaller } from "./seeds/tool-caller.js";
