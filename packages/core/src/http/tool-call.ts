import type * as Redacted from "effect/Redacted";

/**
 * The tool call an HTTP client's requests belong to. The runtime hands it to
 * {@link HttpClient.withToolCall} around each attempt of a tool's `run`.
 */
export interface ToolCallInfo {
  /** The tool's registered name. */
  readonly tool: string;
  /** The plugin id. */
  readonly plugin: string;
  /** The call id (the same for every attempt of one call). */
  readonly callId: string;
  /** The validated input (session values injected). */
  readonly input: unknown;
  /** The authenticated caller, if any. */
  readonly principal?: string | undefined;
  /** The plugin's secrets (API keys), never to be written anywhere. */
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>;
}
