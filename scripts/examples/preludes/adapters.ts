// What @quiver/adapters' examples take as given (see scripts/examples/check-examples.mjs): a
// catalog, a provider's client and model, and the turn of the conversation being answered.
import type Anthropic from "@anthropic-ai/sdk";
import type { Dispatcher } from "@quiver/adapters";
import type { Catalog } from "@quiver/core";
import type OpenAI from "openai";

export { generateText, stepCountIs } from "ai";
/** A catalog with plugins registered (`createCatalog()`). */
export declare const catalog: Catalog;
/** A provider's client, and the model to ask (the AI SDK's, or a provider's model id). */
export declare const openai: OpenAI;
export declare const anthropic: Anthropic;
export declare const model: string;
/** LangChain's `createAgent` (from the `langchain` package), as far as the example uses it. */
export declare const createAgent: (options: { model: unknown; tools: readonly unknown[] }) => unknown;
/** The conversation so far (Chat Completions), the user's prompt, and the Responses API's input. */
export declare const messages: OpenAI.ChatCompletionMessageParam[];
export declare const prompt: string;
export declare const input: OpenAI.Responses.ResponseInput;
/** A dispatcher of the catalog (`createDispatcher(catalog)`), and who is talking. */
export declare const dispatcher: Dispatcher;
export declare const conversationId: string;
export declare const userId: string;
/** One tool call: its id, tool name and parsed arguments. */
export declare const id: string;
export declare const name: string;
export declare const args: Record<string, unknown>;
/** What a seed app asks for. */
export declare const query: string;
export declare const library: string;
export declare const asignatura: string;
export declare const key: string;
export declare const topic: string;
export declare const state: { readonly asignatura: string };
