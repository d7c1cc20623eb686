import type { CommandSpec } from "../cli/command.js";
import { columns, firstSentence } from "../cli/output.js";
import { EXIT } from "../cli/usage-error.js";

/** README's exit codes: a plugin skipped as broken or incompatible makes `list` fail (1). */
const exitCode = (skipped: number) => (skipped > 0 ? EXIT.failed : EXIT.ok);

/** `quiver list`: the plugins found and their tools; exit 1 when a plugin was skipped. */
export const listCommand: CommandSpec = {
  name: "list",
  summary: "List the plugins found in this project and their tools",
  usage: "list [--category <name>] [--json]",
  options: {
    category: { type: "string", value: "<name>", description: "Only tools of this category" },
  },
  examples: [
    "quiver list",
    "quiver list --category scientific_database",
    "quiver list --json | jq '.tools[].name'",
  ],
  run: (ctx) =>
    ctx.withHost(async (host) => {
      const { out } = ctx;
      const s = out.style;
      const category = ctx.flags.category as string | undefined;
      const tools = host.catalog.list().filter((t) => !category || t.category === category);
      const packageOf = new Map(host.plugins.map((p) => [p.info.id, p.loaded.candidate]));
      const plugins = host.catalog.plugins();
      if (out.json) {
        out.printJson({
          plugins: plugins.map((p) => ({
            ...p,
            package: packageOf.get(p.id)?.package ?? (p.id === "quiver" ? "@quiver/host" : undefined),
          })),
          tools,
          problems: host.problems,
          disabled: host.disabled,
        });
        return exitCode(host.problems.length);
      }
      for (const p of plugins) {
        const shown = tools.filter((t) => t.plugin === p.id);
        if (category && shown.length === 0) continue;
        const pkg = packageOf.get(p.id);
        const state = p.status === "ready" ? s.green("ready") : s.yellow("unconfigured");
        out.print(
          `${s.bold(p.id)} ${s.dim(pkg ? `${pkg.package}@${pkg.version ?? "?"}` : `v${p.version}`)} ${state}`,
        );
        if (p.status !== "ready" && p.message) out.print(`  ${s.yellow(p.message)}`);
        for (const l of columns(
          shown.map((t) => [`  ${t.name}`, s.dim(t.category), firstSentence(t.description)]),
        )) {
          out.print(l);
        }
      }
      const ready = plugins.filter((p) => p.status === "ready").length;
      out.print();
      out.print(
        s.dim(
          `${tools.length} tools from ${plugins.length} plugins (${ready} ready, ${plugins.length - ready} unconfigured` +
            `${host.problems.length ? `, ${host.problems.length} skipped` : ""}${host.disabled.length ? `, ${host.disabled.length} disabled` : ""}).`,
        ),
      );
      return exitCode(host.problems.length);
    }),
};
