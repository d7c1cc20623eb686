import type { CallOptions, Outcome } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";
import { type ToolWorld, toolContext } from "./tool-context.js";

/**
 * The outcome of a destructive call that waits for confirmation: the tool's own `preview` of what it
 * would do (or the validated input when it has none, or when its preview fails), with the new token.
 */
export const confirmationOutcome = async (
  reg: RegisteredTool,
  value: Record<string, unknown>,
  issued: { readonly token: string; readonly expiresAt: string },
  invalidToken: boolean,
  options: CallOptions,
  world: ToolWorld,
  callId: string,
): Promise<Outcome> => {
  let preview: unknown = value;
  if (reg.tool.preview) {
    const ctx = toolContext(
      reg,
      world,
      options,
      options.session ?? {},
      callId,
      new AbortController().signal,
      0,
      () => {},
    );
    try {
      preview = await reg.tool.preview(value, ctx);
    } catch {
      preview = value;
    }
  }
  return {
    _tag: "NeedsConfirmation",
    confirmation: { token: issued.token, expiresAt: issued.expiresAt, preview },
    invalidToken,
  };
};
