/**
 * Opens the registration's state (`ctx.resources`): nothing to connect, only what later calls remember of
 * the LLM endpoints that refused a request. `noJsonSchema`: endpoints that rejected `json_schema`, so later
 * calls go straight to `json_object`; `noTemperature`: endpoints that refused the configured `temperature`
 * (OpenAI's reasoning models), so later calls leave it out.
 */
export const setupTestgen = () => ({ noJsonSchema: new Set<string>(), noTemperature: new Set<string>() });

/** What the testgen tool keeps for one registration: the LLM endpoints that refused (see {@link setupTestgen}). */
export type TestgenResources = ReturnType<typeof setupTestgen>;
