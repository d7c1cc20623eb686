import { join } from "node:path";
import { createDemoContext } from "@quiver/core";
import type { HostSettings } from "../config/host-settings.js";
import type { LoadedPlugin } from "../discovery/types.js";

/** What demo mode built: registration options per plugin id, and the lines it printed. */
export interface DemoReport {
  readonly options: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly lines: ReadonlyArray<string>;
}

const ms = (started: number) => `${Math.round(performance.now() - started)} ms`;

/**
 * Demo mode: runs the `demo` step of every plugin that declares one, in parallel, each in its own
 * cache folder (`<demo cache>/<plugin id>`), so a new user can ask real questions at once from the
 * data the plugins ship. A plugin whose `skipWhenSet` variables are set (the user chose their own
 * store) is left alone. Never throws: a failed step is one line, and that plugin is served with its
 * own settings.
 *
 * @example
 * const demo = await prepareDemo(plugins, settings, console.error)
 * catalog.register(plugin, { ...demo.options[plugin.id], ...userOptions })
 */
export const prepareDemo = async (
  plugins: ReadonlyArray<LoadedPlugin>,
  settings: HostSettings,
  log: (line: string) => void,
): Promise<DemoReport> => {
  const options: Record<string, Record<string, unknown>> = {};
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    log(line);
  };
  const withDemo = plugins.filter((p) => p.plugin.demo !== undefined);
  if (withDemo.length === 0) return { options, lines };
  say(`demo mode: ${withDemo.length} plugin${withDemo.length === 1 ? "" : "s"} with demo data`);
  await Promise.all(
    withDemo.map(async ({ plugin }) => {
      const demo = plugin.demo!;
      const own = (demo.skipWhenSet ?? []).filter((v) => settings.env[v]);
      if (own.length > 0) {
        say(`${plugin.id}: ${own.join(", ")} set, so the demo leaves its store alone`);
        return;
      }
      const started = performance.now();
      try {
        const ctx = await createDemoContext({
          cacheDir: join(settings.demo.cacheDir, plugin.id),
          principal: settings.principal ?? "demo",
          env: settings.env,
        });
        const result = await demo.seed(ctx);
        options[plugin.id] = { ...result.options };
        say(`${plugin.id}: ${result.message} (${ms(started)})`);
      } catch (error) {
        say(
          `${plugin.id}: the demo step failed (${error instanceof Error ? error.message : String(error)}); it serves its own settings`,
        );
      }
    }),
  );
  return { options, lines };
};
