import { fail, ToolFailure } from "@quiver/core";
import { SONAR_MODELS } from "./sonar-models.js";

/** Where a Perplexity key is created. */
export const KEYS_PAGE = "https://www.perplexity.ai/account/api/keys";

/**
 * Adds Perplexity-specific fixes to the HTTP client's failures: a rejected key (401/403) says how to
 * get a valid one, an unknown model lists the documented ones. Messages are already redacted.
 */
export const relabel = (error: unknown): unknown => {
  if (!ToolFailure.isInstance(error)) return error;
  if (error.kind === "access_denied") {
    return fail.accessDenied(error.message, {
      ...(error.status === undefined ? {} : { status: error.status }),
      suggestion: `Perplexity rejected PERPLEXITY_API_KEY. Set it to a valid key (they start with "pplx-"; create one at ${KEYS_PAGE}), check the account has API credit, and restart the host.`,
      guidance:
        "Web search is not available here: answer from your own knowledge and say you could not check current sources.",
    });
  }
  if (error.kind === "invalid_input" && /model/i.test(error.message)) {
    return fail.invalidInput(error.message, {
      ...(error.status === undefined ? {} : { status: error.status }),
      suggestion: `Use one of the Sonar models: ${SONAR_MODELS.join(", ")} (or omit model).`,
    });
  }
  return error;
};
