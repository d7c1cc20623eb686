import type { CallOptions } from "../runtime/call-types.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { type ContextServices, toolContext } from "./run-tool.js";

/**
 * What a destructive call would do, shown before it is confirmed: the tool's own `preview` (run
 * with a context of its own), or the validated input when it has none or its preview fails.
 */
export const previewOf = async (
  reg: RegisteredTool,
  input: Record<string, unknown>,
  options: CallOptions,
  services: ContextServices,
  callId: string,
): Promise<unknown> => {
  if (!reg.tool.preview) return input;
  const call = { reg, input, options, session: options.session ?? {}, callId, trace: undefined };
  const ctx = toolContext(call, services, {
    number: 0,
    signal: new AbortController().signal,
    onPartial: () => {},
  });
  try {
    return await reg.tool.preview(input, ctx);
  } catch {
    return input;
  }
};
