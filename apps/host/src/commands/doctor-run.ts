import { existsSync } from "node:fs";
import type { HealthReport } from "@quiver/core";
import pkg from "../../package.json" with { type: "json" };
import type { CommandContext } from "../cli/command.js";
import { EXIT, UsageError } from "../cli/usage-error.js";

/** One line of the doctor's report. */
interface PluginCheck {
  readonly id: string;
  readonly package: string | undefined;
  readonly loaded: boolean;
  readonly configured: boolean | undefined;
  readonly health: HealthReport | undefined;
  readonly ok: boolean;
  readonly message: string;
  readonly fix: string | undefined;
  /** The plugin's commands (`quiver <id> <command>`). */
  readonly commands: ReadonlyArray<string>;
  /** The data its demo step reads, and whether each is there (none without a demo step). */
  readonly demoData: ReadonlyArray<{ readonly path: string; readonly present: boolean }>;
}

/** Runs `quiver doctor`: checks every plugin (loaded, configured, upstream health) and prints what to do. */
export const runDoctor = (ctx: CommandContext): Promise<number> =>
  ctx.withHost(
    async (host) => {
      const { toMillis, VERSION: CORE_VERSION } = await import("@quiver/core");
      const timeoutText = (ctx.flags.timeout as string | undefined) ?? "10s";
      let timeoutMs: number;
      try {
        timeoutMs = toMillis(timeoutText as never);
      } catch {
        throw new UsageError(`--timeout must be a duration such as "10s", got "${timeoutText}".`);
      }
      const packageOf = new Map(host.plugins.map((p) => [p.info.id, p.loaded.candidate.package]));
      const definitionOf = new Map(host.plugins.map((p) => [p.info.id, p.loaded.plugin]));
      const plugins = host.catalog.plugins().filter((p) => p.id !== "quiver");
      const checks: PluginCheck[] = await Promise.all(
        plugins.map(async (p): Promise<PluginCheck> => {
          const definition = definitionOf.get(p.id);
          const base = {
            id: p.id,
            package: packageOf.get(p.id),
            loaded: true,
            commands: (definition?.commands ?? []).map((c: { name: string }) => c.name),
            demoData: (definition?.demo?.data ?? []).map((path: string) => ({
              path,
              present: existsSync(path),
            })),
          };
          if (p.status === "unconfigured") {
            return {
              ...base,
              configured: false,
              health: undefined,
              ok: false,
              message: p.message ?? "not configured",
              fix: p.missing.length
                ? `Set ${p.missing.join(", ")} (environment) or its option in quiver.config.json.`
                : "Fix its options in quiver.config.json.",
            };
          }
          if (ctx.flags.offline) {
            return {
              ...base,
              configured: true,
              health: undefined,
              ok: true,
              message: "loaded and configured (upstream not checked: --offline)",
              fix: undefined,
            };
          }
          const health = await host.catalog.health(p.id, AbortSignal.timeout(timeoutMs));
          return {
            ...base,
            configured: true,
            health,
            ok: health.ok,
            message: `${health.message}${health.latencyMs !== undefined ? ` (${health.latencyMs} ms)` : ""}`,
            fix: health.ok ? undefined : (health.fix ?? "Check the network and the plugin's baseUrl option."),
          };
        }),
      );
      const skipped = host.problems.map((p) => ({
        id: undefined,
        package: p.package,
        loaded: false,
        kind: p.kind,
        ok: false,
        message: p.message,
        fix: p.fix,
      }));
      const failed = skipped.length > 0 || checks.some((c) => c.configured && !c.ok);
      const settings = host.settings;
      const { out } = ctx;
      if (out.json) {
        out.printJson({
          ok: !failed,
          host: {
            version: pkg.version,
            core: CORE_VERSION,
            node: process.version,
            configFile: settings.configFile ?? null,
            cwd: settings.cwd,
          },
          plugins: checks,
          skipped,
          disabled: host.disabled,
          warnings: settings.warnings,
        });
        return failed ? EXIT.failed : EXIT.ok;
      }
      const s = out.style;
      out.print(
        `${s.bold("quiver")} ${pkg.version} · @quiver/core ${CORE_VERSION} · node ${process.version}`,
      );
      out.print(s.dim(`project ${settings.cwd} · config ${settings.configFile ?? "(none)"}`));
      out.print();
      for (const c of checks) {
        const mark = c.ok ? s.green("✓") : c.configured === false ? s.yellow("!") : s.red("✗");
        const state =
          c.configured === false ? s.yellow("unconfigured") : c.ok ? s.green("ok") : s.red("unreachable");
        out.print(`${mark} ${s.bold(c.id)} ${s.dim(c.package ?? "")} ${state}`);
        out.print(`    ${c.message}`);
        if (c.fix) out.print(`    ${s.cyan("fix:")} ${c.fix}`);
        if (c.commands.length > 0)
          out.print(`    ${s.dim("commands:")} ${c.commands.map((n) => `quiver ${c.id} ${n}`).join(", ")}`);
        const missing = c.demoData.filter((d) => !d.present);
        if (c.demoData.length > 0)
          out.print(
            `    ${s.dim("demo data:")} ${missing.length === 0 ? `${c.demoData.length} present` : s.yellow(`missing ${missing.map((d) => d.path).join(", ")} (demo mode serves it without)`)}`,
          );
      }
      for (const p of skipped) {
        out.print(`${s.red("✗")} ${s.bold(p.package)} ${s.red(`not loaded (${p.kind})`)}`);
        out.print(`    ${p.message}`);
        out.print(`    ${s.cyan("fix:")} ${p.fix}`);
      }
      for (const d of host.disabled)
        out.print(`${s.dim("-")} ${s.bold(d)} ${s.dim("disabled in the config")}`);
      for (const w of settings.warnings) out.print(`${s.yellow("!")} ${w}`);
      out.print();
      const ok = checks.filter((c) => c.ok).length;
      out.print(
        failed
          ? s.red(`${ok}/${checks.length + skipped.length} plugins healthy.`)
          : s.green(
              `${ok}/${checks.length} plugins healthy${checks.length > ok ? " (the others need settings)" : ""}.`,
            ),
      );
      return failed ? EXIT.failed : EXIT.ok;
    },
    { quiet: true },
  );
