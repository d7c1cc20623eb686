import type { Catalog, SessionContext, ToolProgress, ToolResult } from "@quiver/core";
import { envelopeText, isErrorResult } from "./envelope-text.js";

/** A tool call from OpenAI Chat Completions (`message.tool_calls[i]`). */
export interface OpenAIChatToolCall {
  readonly id: string;
  readonly type?: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A tool call from the OpenAI Responses API (an item of `response.output`). */
export interface OpenAIResponsesToolCall {
  readonly type: "function_call";
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
  readonly id?: string;
}

/** A tool call from Anthropic Messages (a `tool_use` content block). */
export interface AnthropicToolUse {
  readonly type: "tool_use";
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** Any provider tool call the dispatcher answers. */
export type ProviderToolCall = OpenAIChatToolCall | OpenAIResponsesToolCall | AnthropicToolUse;

/** The Chat Completions message answering a tool call. */
export interface OpenAIToolMessage {
  readonly role: "tool";
  readonly tool_call_id: string;
  readonly content: string;
}

/** The Responses API input item answering a function call. */
export interface OpenAIFunctionCallOutput {
  readonly type: "function_call_output";
  readonly call_id: string;
  readonly output: string;
}

/** An Anthropic `tool_result` block; `is_error` is set for every status but success. */
export interface AnthropicToolResultBlock {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error: boolean;
}

/** The Anthropic user message carrying tool results. */
export interface AnthropicToolResultMessage {
  readonly role: "user";
  readonly content: AnthropicToolResultBlock[];
}

/** One dispatched call: the provider's ids, the tool and the envelope. */
export interface DispatchedCall {
  readonly id: string;
  readonly name: string;
  readonly result: ToolResult;
}

/** Per-dispatch options. */
export interface DispatchOptions {
  /** Cancels the calls (the runs are interrupted and their upstream requests aborted). */
  readonly signal?: AbortSignal;
}

/** Options of `createDispatcher`. */
export interface DispatcherOptions {
  /** Who is calling and in which conversation (principal, session id, values for injected fields). */
  readonly session?: SessionContext;
  /** Progress of long calls. */
  readonly onProgress?: (tool: string, progress: ToolProgress) => void;
  /** Calls of one turn run at most this many at once (default 4). */
  readonly concurrency?: number;
}

/**
 * What `dispatchAll` answers for a provider's array: Anthropic content (it has `tool_use` blocks)
 * gets user messages, Responses output (it has `function_call` items) gets function_call_output
 * items, anything else (Chat Completions `tool_calls`) gets `tool` messages.
 */
export type DispatchAllResult<T> = [Extract<T, { readonly type: "tool_use" }>] extends [never]
  ? [Extract<T, { readonly type: "function_call" }>] extends [never]
    ? OpenAIToolMessage[]
    : OpenAIFunctionCallOutput[]
  : AnthropicToolResultMessage[];

/** Answers provider tool calls by running them on the catalog. */
export interface Dispatcher {
  /** Runs one call and returns the provider's tool-result message with the envelope as content. */
  dispatch(call: OpenAIChatToolCall, options?: DispatchOptions): Promise<OpenAIToolMessage>;
  dispatch(call: OpenAIResponsesToolCall, options?: DispatchOptions): Promise<OpenAIFunctionCallOutput>;
  dispatch(call: AnthropicToolUse, options?: DispatchOptions): Promise<AnthropicToolResultMessage>;
  /**
   * Runs every tool call of one assistant turn (other items are skipped) and returns what to append
   * to the conversation: one `tool` message per OpenAI call, one function_call_output per Responses
   * call, or one Anthropic user message holding all `tool_result` blocks (none when there were no
   * calls). Pass the provider's own array: `message.tool_calls`, `response.output` or `message.content`.
   */
  dispatchAll<T extends object>(
    items: ReadonlyArray<T>,
    options?: DispatchOptions,
  ): Promise<DispatchAllResult<T>>;
  /** Runs one call and returns the envelope (for hosts that build their own messages). */
  call(call: ProviderToolCall, options?: DispatchOptions): Promise<DispatchedCall>;
}

type Parsed = { kind: "chat" | "responses" | "anthropic"; id: string; name: string; input: unknown };

const parse = (call: unknown): Parsed | undefined => {
  if (!call || typeof call !== "object") return undefined;
  const c = call as Record<string, unknown>;
  const fn = c.function as { name?: unknown; arguments?: unknown } | undefined;
  if (fn && typeof fn === "object" && typeof fn.name === "string" && typeof c.id === "string") {
    // The arguments stay a JSON string: the runtime parses it, and names the problem when it is not JSON.
    return { kind: "chat", id: c.id, name: fn.name, input: fn.arguments ?? "{}" };
  }
  if (c.type === "function_call" && typeof c.call_id === "string" && typeof c.name === "string") {
    return { kind: "responses", id: c.call_id, name: c.name, input: c.arguments ?? "{}" };
  }
  if (c.type === "tool_use" && typeof c.id === "string" && typeof c.name === "string") {
    return { kind: "anthropic", id: c.id, name: c.name, input: c.input ?? {} };
  }
  return undefined;
};

const resultMessage = (
  p: Parsed,
  r: ToolResult,
): OpenAIToolMessage | OpenAIFunctionCallOutput | AnthropicToolResultBlock => {
  const text = envelopeText(r);
  switch (p.kind) {
    case "chat":
      return { role: "tool", tool_call_id: p.id, content: text };
    case "responses":
      return { type: "function_call_output", call_id: p.id, output: text };
    case "anthropic":
      return { type: "tool_result", tool_use_id: p.id, content: text, is_error: isErrorResult(r) };
  }
};

/**
 * Creates a dispatcher that runs OpenAI (Chat Completions or Responses) and Anthropic tool calls on
 * a catalog and answers each with the provider's tool-result message, the envelope as its content.
 * Calls never throw for tool failures: a failure is an envelope the model reads (and, for
 * Anthropic, `is_error: true`).
 *
 * Use it in a hand-written agent loop next to `toOpenAITools` or `toAnthropicTools`.
 *
 * @example
 * const dispatcher = createDispatcher(catalog, { session: { id: conversationId, principal: userId } });
 * const toolMessage = await dispatcher.dispatch({ id: "call_1", function: { name: "fda_search_drugs", arguments: '{"query":"imatinib"}' } });
 */
export const createDispatcher = (catalog: Catalog, options: DispatcherOptions = {}): Dispatcher => {
  const callOptions = (name: string, o: DispatchOptions | undefined) => ({
    ...(options.session ? { session: options.session } : {}),
    ...(o?.signal ? { signal: o.signal } : {}),
    ...(options.onProgress ? { onProgress: (p: ToolProgress) => options.onProgress!(name, p) } : {}),
  });

  const parseOrThrow = (call: unknown): Parsed => {
    const p = parse(call);
    if (!p) {
      throw new TypeError(
        "Not a tool call: expected OpenAI {id, function: {name, arguments}}, {type: 'function_call', call_id, name, arguments} or Anthropic {type: 'tool_use', id, name, input}.",
      );
    }
    return p;
  };

  const call = async (c: ProviderToolCall, o?: DispatchOptions): Promise<DispatchedCall> => {
    const p = parseOrThrow(c);
    const result = await catalog.call(p.name, p.input, callOptions(p.name, o));
    return { id: p.id, name: p.name, result };
  };

  const dispatch = async (c: ProviderToolCall, o?: DispatchOptions) => {
    const p = parseOrThrow(c);
    const message = resultMessage(p, await catalog.call(p.name, p.input, callOptions(p.name, o)));
    return p.kind === "anthropic" ? { role: "user", content: [message] } : message;
  };

  const dispatchAll = async (items: ReadonlyArray<unknown>, o?: DispatchOptions) => {
    const parsed = items.map(parse).filter((p): p is Parsed => p !== undefined);
    const results = await catalog.callMany(
      parsed.map((p) => ({ name: p.name, input: p.input, options: callOptions(p.name, o) })),
      options.concurrency !== undefined ? { concurrency: options.concurrency } : {},
    );
    const messages = parsed.map((p, i) => resultMessage(p, results[i]!));
    if (parsed[0]?.kind === "anthropic") {
      return messages.length > 0 ? [{ role: "user", content: messages as AnthropicToolResultBlock[] }] : [];
    }
    return messages;
  };

  return { dispatch, dispatchAll, call } as Dispatcher;
};
