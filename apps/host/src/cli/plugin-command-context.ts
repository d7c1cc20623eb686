import type { CommandContext } from "@quiver/core";
import type { Output } from "./output.js";
import { createProgress } from "./progress.js";

/** What a plugin command's context is built from. */
export interface PluginCommandContextInput {
  readonly label: string;
  readonly args: ReadonlyArray<string>;
  readonly flags: Readonly<Record<string, string | boolean | undefined>>;
  readonly config: unknown;
  readonly resources: unknown;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: Output;
  readonly signal: AbortSignal;
}

/**
 * The context a plugin command runs with: lines for people on stdout (dropped in `--json` mode),
 * its JSON result on stdout, warnings on stderr, and progress through the host's progress printer
 * (a bar on a terminal, plain lines otherwise, nothing in JSON mode). Call `finish` after `run`.
 *
 * @example
 * const { ctx, finish } = pluginCommandContext({
 *   label: "notes add", args: ["a.txt"], flags: { tag: "x" }, config: {}, resources: undefined,
 *   cwd: process.cwd(), env: process.env, out, signal,
 * })
 * try { await addCommand.run(ctx) } finally { finish() }
 */
export const pluginCommandContext = (
  input: PluginCommandContextInput,
): { readonly ctx: CommandContext<unknown, unknown>; readonly finish: () => void } => {
  const { out } = input;
  const bar = createProgress(input.label, { tty: out.errTty });
  let started = false;
  const ctx: CommandContext<unknown, unknown> = {
    args: input.args,
    flags: input.flags,
    config: input.config,
    resources: input.resources,
    cwd: input.cwd,
    env: input.env,
    json: out.json,
    print: (line) => {
      if (!out.json) out.print(line);
    },
    printJson: (value) => out.printJson(value),
    warn: (line) => out.note(line),
    progress: (done, total, label) => {
      if (out.json) return;
      started = true;
      bar.update(done, total, label);
    },
    signal: input.signal,
  };
  return {
    ctx,
    finish: () => {
      if (started) bar.finish();
    },
  };
};
