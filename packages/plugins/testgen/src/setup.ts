/** What the testgen tool keeps for one registration (`ctx.resources`): the LLM endpoints that refused. */
export interface TestgenResources {
  /** Endpoints that rejected `json_schema`: later calls go straight to `json_object`. */
  readonly noJsonSchema: Set<string>;
  /** Endpoints that refused the configured `temperature` (OpenAI's reasoning models): later calls leave it out. */
  readonly noTemperature: Set<string>;
}

/** Opens the registration's state: nothing to connect, only what later calls remember. */
export const setupTestgen = (): TestgenResources => ({ noJsonSchema: new Set(), noTemperature: new Set() });
