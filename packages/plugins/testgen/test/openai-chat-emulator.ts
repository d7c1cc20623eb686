import { readFileSync } from "node:fs";
import type { Emulator, EmulatorResponse } from "@quiver/testing";

/**
 * OpenAI's 400 for a temperature a reasoning model refuses (see fixtures/SOURCE.md); `0.4` in the
 * message is replaced with the value sent.
 */
export const unsupportedTemperature = JSON.parse(
  readFileSync(new URL("./fixtures/openai-unsupported-temperature.json", import.meta.url), "utf8"),
) as { error: { message: string; type: string; param: string; code: string } };

/** OpenAI's reasoning models: the o-series and the GPT-5 family accept only the default temperature (1). */
export const isReasoningModel = (model: string) => /^(?:o\d|gpt-5)/i.test(model);

/**
 * Serves `POST {path}` as OpenAI's chat completions do for the rule testgen met: a reasoning model
 * asked with a temperature other than 1 answers the recorded 400; otherwise `reply` answers.
 *
 * @example
 * routeOpenAiChat(up, "/v1/chat/completions", () => ({ json: completion(openQuestions(2)) }));
 */
export const routeOpenAiChat = (
  up: Emulator,
  path: string,
  reply: (body: Record<string, unknown>) => EmulatorResponse,
) =>
  up.route("POST", path, (req) => {
    const body = req.json as Record<string, unknown>;
    const t = body.temperature;
    if (typeof body.model === "string" && isReasoningModel(body.model) && t !== undefined && t !== 1) {
      const { error } = unsupportedTemperature;
      return {
        status: 400,
        json: { error: { ...error, message: error.message.replace("0.4", String(t)) } },
      };
    }
    return reply(body);
  });
