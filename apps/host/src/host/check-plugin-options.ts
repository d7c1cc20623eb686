import { type AnyPlugin, closestMatches } from "@quiver/core";
import type { PluginSettings } from "../config/host-settings.js";

type SchemaLike = {
  readonly shape?: unknown;
  readonly _zod?: { readonly def?: Readonly<Record<string, unknown>> };
};

/**
 * The option names a plugin's settings schema declares, or undefined when they cannot be read (a
 * schema that is not an object, or one that accepts any key). zod keeps an object's keys in `shape`;
 * a refined, piped, optional or defaulted object wraps it, and no zod function unwraps every kind.
 */
export const optionNames = (plugin: AnyPlugin): string[] | undefined => {
  let schema = plugin.config as SchemaLike | undefined;
  for (let depth = 0; schema && depth < 6; depth++) {
    const def = schema._zod?.def;
    if (schema.shape && typeof schema.shape === "object") {
      const catchall = def?.catchall as SchemaLike | undefined;
      if (catchall && catchall._zod?.def?.type !== "never") return undefined;
      return Object.keys(schema.shape);
    }
    schema = (def?.in ?? def?.innerType ?? def?.schema) as SchemaLike | undefined;
  }
  return undefined;
};

/** Options that exist only in code (the plugin's factory), and what does their job on a host. */
const CODE_ONLY: Readonly<Record<string, string>> = {
  sessionAsignatura:
    "it is an option of the plugin's factory in code; on a host, `--profile chatbot` takes asignatura from the session (X-Quiver-Session-Values) over the model's",
};

/**
 * One line per option given to a plugin (config file or `--set`) that its settings do not have,
 * naming the closest valid option: an unknown option is an error, never silently ignored.
 *
 * @example
 * unknownOptions(guia, settings.plugins.get("guia"), "quiver.config.json") // ['--set guia.sessionAsignatura: ...']
 */
export const unknownOptions = (
  plugin: AnyPlugin,
  settings: PluginSettings | undefined,
  fileName: string,
): string[] => {
  if (!settings) return [];
  const names = optionNames(plugin);
  if (!names) return [];
  const known = new Set(names);
  const line = (where: string, key: string) => {
    const near = closestMatches(names, key, {
      limit: 1,
      maxDistance: Math.max(3, Math.ceil(key.length / 2)),
    });
    const why = CODE_ONLY[key];
    return (
      `${where}: plugin "${plugin.id}" has no option "${key}"` +
      (why ? ` (${why})` : "") +
      (near.length > 0 ? `; did you mean "${near[0]}"?` : ".") +
      ` Its options: ${names.join(", ")}.`
    );
  };
  return [
    ...Object.keys(settings.flagOptions)
      .filter((k) => !known.has(k))
      .map((k) => line(`--set ${plugin.id}.${k}`, k)),
    ...Object.keys(settings.fileOptions)
      .filter((k) => !known.has(k))
      .map((k) => line(`${fileName}: plugins.${plugin.id}.options.${k}`, k)),
  ];
};

/**
 * One line per `--set <plugin>.<option>` naming a plugin that is not installed (a typo in the id),
 * with the closest installed one: a flag must not be dropped with only a skipped-plugin note.
 *
 * @example
 * unknownSetPlugins(settings.plugins, ["guia", "rag"]) // ['--set guai.…: no installed plugin "guai"; did you mean "guia"? …']
 */
export const unknownSetPlugins = (
  plugins: ReadonlyMap<string, PluginSettings>,
  installed: ReadonlyArray<string>,
  packages: ReadonlyArray<string> = [],
): string[] =>
  [...plugins.entries()]
    .filter(
      ([key, p]) =>
        Object.keys(p.flagOptions).length > 0 && !installed.includes(key) && !packages.includes(key),
    )
    .map(([key, p]) => {
      const near = closestMatches(installed, key, {
        limit: 1,
        maxDistance: Math.max(2, Math.ceil(key.length / 3)),
      });
      return (
        `--set ${key}.${Object.keys(p.flagOptions)[0]}: no installed plugin "${key}"` +
        (near.length > 0 ? `; did you mean "${near[0]}"?` : ".") +
        ` Installed: ${installed.join(", ") || "none"}.`
      );
    });
