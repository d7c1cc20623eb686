/**
 * Sonar models the tool offers: those that answer a single, non-streamed chat completion within the
 * tool's time budget. `sonar-deep-research` is left out (see {@link LONG_RUNNING_MODELS}).
 */
export const SONAR_MODELS = ["sonar", "sonar-pro", "sonar-reasoning-pro"] as const;

/**
 * Models that research for minutes: a non-streamed call outlives any sensible timeout and a blind
 * retry repeats a slow, expensive run. Perplexity runs them through its asynchronous API or, in its
 * official MCP server, the Agent API streamed; neither is supported here, so they are refused.
 */
export const LONG_RUNNING_MODELS: ReadonlyArray<string> = ["sonar-deep-research"];
