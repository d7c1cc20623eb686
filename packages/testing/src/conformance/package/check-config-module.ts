import type { AnyPlugin } from "@quiver/core";
import { pascalCase } from "./naming.js";

/**
 * Checks `src/config.ts` of a plugin with settings: the config type is the schema's output
 * (`export type <Name>Config = z.output<typeof schema>`, so it cannot drift from what the schema
 * parses). Environment variables are declared on the settings themselves (`secret({ env })`,
 * `setting(schema, { env })`). `source` is the file's text (undefined when missing: the layout check
 * reports it). Returns what to change.
 *
 * @example
 * checkConfigModule(readFileSync("src/config.ts", "utf8"), plugin)
 */
export const checkConfigModule = (
  source: string | undefined,
  plugin: Pick<AnyPlugin, "id" | "config">,
): string[] => {
  if (plugin.config === undefined || source === undefined) return [];
  const problems: string[] = [];
  const type = `${pascalCase(plugin.id)}Config`;
  if (!new RegExp(`export\\s+type\\s+${type}\\s*=\\s*z\\.output<\\s*typeof\\s+\\w+\\s*>`).test(source))
    problems.push(
      `src/config.ts does not declare \`export type ${type} = z.output<typeof <schema>>\`: derive the config type from the schema instead of writing it by hand.`,
    );
  return problems;
};
