/**
 * A mistake in how the command was called (unknown flag, missing argument, input that is not JSON):
 * printed with the command's usage line, exit code 2.
 *
 * @example
 * throw new UsageError("call needs a tool name: quiver call <tool> --input '{...}'")
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** Exit codes of the quiver command. */
export const EXIT = {
  /** Done (a tool call answered success or partial). */
  ok: 0,
  /** The work failed (a tool call answered an error status, a plugin is broken, a server failed). */
  failed: 1,
  /** The command was called wrongly (flags, arguments, config). */
  usage: 2,
} as const;
