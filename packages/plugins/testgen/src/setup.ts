/** What the testgen tool keeps for one registration (`ctx.resources`). */
export interface TestgenResources {
  /** LLM endpoints that rejected `json_schema`: later calls go straight to `json_object`. */
  readonly noJsonSchema: Set<string>;
  /**
   * Per LLM endpoint, the optional request parameters it refused as unsupported (`temperature` on
   * OpenAI's reasoning models): later calls leave them out from the start.
   */
  readonly refusedParams: Map<string, Set<string>>;
}

/** Opens the registration's state: nothing to connect, only what later calls remember. */
export const setupTestgen = (): TestgenResources => ({
  noJsonSchema: new Set<string>(),
  refusedParams: new Map<string, Set<string>>(),
});
