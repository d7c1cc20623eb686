import type { AnyPlugin } from "@quiver/core";
import { pascalCase } from "./naming.js";

/** `private-repo` → `PRIVATE_REPO_ENV`: the constant naming each setting's environment variable. */
export const envConstantName = (id: string): string => `${id.replaceAll("-", "_").toUpperCase()}_ENV`;

/**
 * Checks `src/config.ts` of a plugin with settings: the config type is the schema's output
 * (`export type <Name>Config = z.output<typeof schema>`, so it cannot drift from what the schema
 * parses), and a plugin that reads environment variables names them in one exported `<ID>_ENV`
 * constant. `source` is the file's text (undefined when missing: the layout check reports it).
 * Returns what to change.
 *
 * @example
 * checkConfigModule(readFileSync("src/config.ts", "utf8"), plugin)
 */
export const checkConfigModule = (
  source: string | undefined,
  plugin: Pick<AnyPlugin, "id" | "config" | "env">,
): string[] => {
  if (plugin.config === undefined || source === undefined) return [];
  const problems: string[] = [];
  const type = `${pascalCase(plugin.id)}Config`;
  if (!new RegExp(`export\\s+type\\s+${type}\\s*=\\s*z\\.output<\\s*typeof\\s+\\w+\\s*>`).test(source))
    problems.push(
      `src/config.ts does not declare \`export type ${type} = z.output<typeof <schema>>\`: derive the config type from the schema instead of writing it by hand.`,
    );
  const env = envConstantName(plugin.id);
  if (plugin.env !== undefined && !new RegExp(`export\\s+const\\s+${env}\\b`).test(source))
    problems.push(
      `src/config.ts does not export ${env}: name each setting's environment variable there (\`export const ${env} = { apiKey: "..." } as const\`) and pass it as the plugin's \`env\`.`,
    );
  return problems;
};
