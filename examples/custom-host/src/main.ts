// Ask one question from the command line: LLM_BASE_URL, LLM_MODEL and LLM_API_KEY name the chat model.
import { chatModel, createAgentHost } from "./agent-host.ts";

const host = createAgentHost({
  model: chatModel({
    baseUrl: process.env.LLM_BASE_URL ?? "https://api.openai.com/v1",
    model: process.env.LLM_MODEL ?? "gpt-4.1-mini",
    ...(process.env.LLM_API_KEY ? { apiKey: process.env.LLM_API_KEY } : {}),
  }),
});
const { answer } = await host.ask(
  process.argv.slice(2).join(" ") || "Which FDA-approved drugs contain tirzepatide?",
);
console.log(answer);
await host.close();
