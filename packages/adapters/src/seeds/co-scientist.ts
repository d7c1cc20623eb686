// The AI co-scientist's External Tools Interface over a Quiver catalog; the parts live in ./co-scientist/.
export { type ExternalToolDescription, externalToolCatalogue } from "./co-scientist/catalogue.js";
export {
  createExternalToolExecutor,
  type ExternalToolExecutor,
  type ExternalToolExecutorOptions,
} from "./co-scientist/executor.js";
export { DEFAULT_TIMEOUT_SECONDS } from "./co-scientist/responses.js";
export {
  type DatabaseResult,
  type ExternalToolRequest,
  type ExternalToolResponse,
  type ExternalToolStatus,
  type ProteinStructureResult,
  type RepositoryResult,
  TOOL_TYPES,
  type ToolType,
} from "./co-scientist/types.js";
