import type { CommandContext } from "../cli/command.js";
import { columns, firstSentence } from "../cli/output.js";
import { EXIT, UsageError } from "../cli/usage-error.js";

/** Runs `quiver find "<need>"`: ranks the catalog's tools for the need and prints the best. */
export const runFind = (ctx: CommandContext): Promise<number> =>
  ctx.withHost(async (host) => {
    const need = ctx.args.join(" ").trim();
    if (!need) throw new UsageError('Describe the need in words, e.g. quiver find "search drug labels".');
    const limitText = (ctx.flags.limit as string | undefined) ?? "5";
    const limit = Number(limitText);
    if (!Number.isInteger(limit) || limit < 1)
      throw new UsageError(`--limit must be a positive whole number, got "${limitText}".`);
    const { createToolFinder } = await import("../find/tool-finder.js");
    const finder = createToolFinder(host.catalog);
    const category = ctx.flags.category as string | undefined;
    const tools = finder.rank(need, { limit, ...(category ? { category } : {}) });
    finder.dispose();
    const { out } = ctx;
    if (out.json) {
      out.printJson({ need, tools });
      return tools.length > 0 ? EXIT.ok : EXIT.failed;
    }
    const s = out.style;
    if (tools.length === 0) {
      out.print(`No tool matches "${need}". Run "quiver list" to see them all.`);
      return EXIT.failed;
    }
    for (const l of columns(
      tools.map((t, i) => [
        `${i + 1}.`,
        s.bold(t.name),
        s.dim(t.score.toFixed(2)),
        `${firstSentence(t.description)}${t.available ? "" : s.yellow(" (unconfigured)")}`,
      ]),
    )) {
      out.print(l);
    }
    return EXIT.ok;
  });
