import type { SchemaTarget } from "@quiver/core";
import type { CommandContext } from "../cli/command.js";
import { EXIT, UsageError } from "../cli/usage-error.js";

const TARGETS = ["mcp", "openai", "anthropic", "gemini"] as const;

const shellQuote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** Runs `quiver describe <tool>`: prints the tool's description, schemas, examples and policy. */
export const runDescribe = (ctx: CommandContext): Promise<number> =>
  ctx.withHost(async (host) => {
    const name = ctx.args[0]!;
    const target = (ctx.flags.target as string | undefined) ?? "mcp";
    if (!TARGETS.includes(target as SchemaTarget)) {
      throw new UsageError(`--target must be one of ${TARGETS.join(", ")}, got "${target}".`);
    }
    const d = host.catalog.describe(name, target as SchemaTarget);
    if (!d) {
      const r = await host.catalog.call(name, {});
      throw new UsageError(
        `${r.message}${r.suggestion ? ` ${r.suggestion}` : ""}`,
        'Run "quiver list" for the tools.',
      );
    }
    const { out } = ctx;
    if (out.json) {
      out.printJson(d);
      return EXIT.ok;
    }
    const s = out.style;
    out.print(
      `${s.bold(d.name)} ${s.dim(`(${d.plugin}, ${d.category})`)}${d.available ? "" : ` ${s.yellow("unavailable: plugin not configured")}`}`,
    );
    if (d.title) out.print(d.title);
    out.print();
    out.print(d.description);
    const ann = Object.entries(d.annotations)
      .filter(([, v]) => v === true)
      .map(([k]) => k);
    if (ann.length) out.print(s.dim(`annotations: ${ann.join(", ")}`));
    out.print();
    out.print(s.bold(`Input schema (${target})`));
    out.print(JSON.stringify(d.inputSchema, null, 2));
    if (ctx.flags.output) {
      out.print();
      out.print(s.bold("Output schema"));
      out.print(JSON.stringify(d.outputSchema, null, 2));
    }
    if (d.examples.length) {
      out.print();
      out.print(s.bold("Examples"));
      for (const e of d.examples) {
        if (e.description) out.print(s.dim(`  # ${e.description}`));
        out.print(`  quiver call ${d.name} --input ${shellQuote(JSON.stringify(e.input))}`);
      }
    }
    out.print();
    out.print(s.bold("Policy"));
    out.print(JSON.stringify(d.policy, null, 2));
    return EXIT.ok;
  });
