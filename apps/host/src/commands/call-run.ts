import { readFile } from "node:fs/promises";
import type { ToolResult } from "@quiver/core";
import type { CommandContext } from "../cli/command.js";
import { type Output, readable } from "../cli/output.js";
import { createProgress } from "../cli/progress.js";
import { EXIT, UsageError } from "../cli/usage-error.js";

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

/** Parses the input JSON; a syntax error is a usage error that quotes where it broke. */
export const parseInputJson = (text: string, origin: string): unknown => {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const pos = at ? Number(at[1]) : undefined;
    const excerpt =
      pos !== undefined
        ? `\n  ${text.slice(Math.max(0, pos - 30), pos + 30)}\n  ${" ".repeat(Math.min(30, pos))}^`
        : "";
    throw new UsageError(
      `${origin} is not valid JSON: ${message}${excerpt}`,
      `Give the input as a JSON object, e.g. --input '{"query": "…"}' (quote it for your shell).`,
    );
  }
};

const STATUS_OK = new Set(["success", "partial"]);

/** Prints an envelope readably: status, message, data, then what to do. */
export const printEnvelope = (out: Output, r: ToolResult): void => {
  const s = out.style;
  const color = s.bold("x") !== "x";
  const paint = r.status === "success" ? s.green : r.status === "partial" ? s.yellow : s.red;
  out.print(`${paint(s.bold(r.status))} ${r.message}`);
  if (r.data !== undefined) {
    out.print();
    out.print(readable(r.data, color));
  }
  if (r.error)
    out.print(
      `${s.red("error")} ${r.error.kind}${r.error.retryable ? " (retryable" + (r.error.retryAfterMs ? `, after ${r.error.retryAfterMs} ms` : "") + ")" : ""}: ${r.error.message}`,
    );
  if (r.suggestion) out.print(`${s.cyan("suggestion")} ${r.suggestion}`);
  if (r.guidance) out.print(`${s.cyan("guidance")} ${r.guidance}`);
  if (r.instruction) out.print(s.dim(`instruction: ${r.instruction}`));
  if (r.escalate)
    out.print(s.yellow("escalate: this tool failed repeatedly in this session; tell the user."));
  if (r.confirmation) {
    out.print(
      `${s.yellow("confirmation needed")} call again with --input including "confirmation_token": "${r.confirmation.token}" (expires ${r.confirmation.expiresAt})`,
    );
  }
  const m = r.metadata;
  out.print(
    s.dim(
      `${m.tool}${m.plugin ? ` (${m.plugin})` : ""} · ${Math.round(m.durationMs)} ms · ${m.attempts} attempt${m.attempts === 1 ? "" : "s"}` +
        `${m.cached ? " · cached" : ""}${m.stale ? " · stale" : ""}${m.truncated ? " · truncated" : ""}${m.source ? ` · ${m.source}` : ""}`,
    ),
  );
};

/** Runs `quiver call <tool>`: reads the input, makes one call through the runtime and prints the envelope. */
export const runCall = async (ctx: CommandContext): Promise<number> => {
  const { flags } = ctx;
  if (flags.input !== undefined && flags["input-file"] !== undefined) {
    throw new UsageError("Give either --input or --input-file, not both.");
  }
  let input: unknown = {};
  if (typeof flags.input === "string") input = parseInputJson(flags.input, "--input");
  else if (typeof flags["input-file"] === "string") {
    const file = flags["input-file"];
    let text: string;
    try {
      text = file === "-" ? await readStdin() : await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(
        `--input-file ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}.`,
      );
    }
    input = parseInputJson(text, `--input-file ${file}`);
  }
  const values =
    typeof flags["session-values"] === "string"
      ? parseInputJson(flags["session-values"], "--session-values")
      : undefined;
  if (values !== undefined && (typeof values !== "object" || values === null || Array.isArray(values))) {
    throw new UsageError("--session-values must be a JSON object.");
  }
  return ctx.withHost(async (host) => {
    const name = ctx.args[0]!;
    if (!host.catalog.has(name)) {
      const r = await host.catalog.call(name, input);
      throw new UsageError(
        `${r.message}${r.suggestion ? ` ${r.suggestion}` : ""}`,
        'Run "quiver list" for the tools, or "quiver find <need>".',
      );
    }
    const { out } = ctx;
    const controller = new AbortController();
    const onSigint = () => controller.abort(new Error("Interrupted (Ctrl-C)."));
    process.once("SIGINT", onSigint);
    const progress = createProgress(name, { tty: out.errTty });
    let sawProgress = false;
    try {
      const result = await host.catalog.call(name, input, {
        session: {
          id: (flags.session as string | undefined) ?? `cli-${process.pid}`,
          ...(host.settings.principal !== undefined ? { principal: host.settings.principal } : {}),
          ...(values ? { values: values as Record<string, unknown> } : {}),
        },
        signal: controller.signal,
        onProgress: (p) => {
          sawProgress = true;
          progress.update(p.progress, p.total, p.message);
        },
      });
      if (sawProgress) progress.finish();
      if (out.json) out.printJson(result);
      else printEnvelope(out, result);
      return STATUS_OK.has(result.status) ? EXIT.ok : EXIT.failed;
    } finally {
      process.off("SIGINT", onSigint);
    }
  });
};
