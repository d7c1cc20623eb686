import type { AnyPlugin, DemoResult } from "@quiver/core";
import { createDemoContext } from "@quiver/core";

/** Where {@link seedPluginDemo} builds. */
export interface SeedPluginDemoOptions {
  /** The plugin's demo cache folder (a temporary folder in tests). */
  readonly cacheDir: string;
  readonly principal?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Runs a plugin's demo step as the host's demo mode does and answers its result (the options to
 * register the plugin with and the line the host prints). Running it twice over the same folder
 * shows whether the build is reused.
 *
 * @example
 * const { options } = await seedPluginDemo(createRagPlugin(), { cacheDir: tmp });
 * catalog.register(createRagPlugin(), options);
 */
export const seedPluginDemo = async (
  plugin: AnyPlugin,
  options: SeedPluginDemoOptions,
): Promise<DemoResult> => {
  if (plugin.demo === undefined) throw new Error(`The ${plugin.id} plugin has no demo step.`);
  const ctx = await createDemoContext(options);
  return plugin.demo.seed(ctx);
};
