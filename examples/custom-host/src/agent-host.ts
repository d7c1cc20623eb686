import { createDispatcher, toOpenAITools } from "@quiver/adapters";
import { createCatalog } from "@quiver/core";
import { createFdaPlugin } from "@quiver/plugin-fda";
import guia from "@quiver/plugin-guia";

/** A chat message in the OpenAI Chat Completions shape. */
export type Message = {
  role: string;
  content?: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
};
type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/** Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp server ...). */
export const chatModel =
  (opts: { baseUrl: string; model: string; apiKey?: string }) =>
  async (messages: Message[], tools: unknown[]): Promise<Message> => {
    const res = await fetch(`${opts.baseUrl}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: opts.model, messages, tools }),
    });
    if (!res.ok) throw new Error(`The model answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { choices: [{ message: Message }] }).choices[0].message;
  };

/**
 * An agent host: the FDA and teaching-guide tools, handed to a chat model as OpenAI tools; the model's
 * tool calls run through Quiver's runtime (validation, retries, timeouts ...) and come back as envelopes.
 */
export const createAgentHost = (opts: {
  model: ReturnType<typeof chatModel>;
  fdaBaseUrl?: string;
  user?: string;
}) => {
  const catalog = createCatalog();
  catalog.register(createFdaPlugin(opts.fdaBaseUrl ? { baseUrl: opts.fdaBaseUrl } : {}));
  catalog.register(guia);
  const tools = toOpenAITools(catalog);
  const dispatcher = createDispatcher(catalog, {
    session: { id: crypto.randomUUID(), ...(opts.user ? { principal: opts.user } : {}) },
  });

  const ask = async (question: string, maxTurns = 5) => {
    const messages: Message[] = [{ role: "user", content: question }];
    for (let turn = 0; turn < maxTurns; turn++) {
      const reply = await opts.model(messages, tools);
      messages.push(reply);
      if (!reply.tool_calls?.length) return { answer: reply.content ?? "", messages };
      messages.push(...(await dispatcher.dispatchAll(reply.tool_calls)));
    }
    return { answer: "(stopped: too many tool turns)", messages };
  };
  return { ask, tools, close: () => catalog.close() };
};
