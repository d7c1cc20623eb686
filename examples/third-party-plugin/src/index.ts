import { definePlugin, type PluginOptions } from "@quiver/core";
import { add } from "./commands/add.js";
import { type GlossaryConfig, glossaryConfig } from "./config.js";
import { demo } from "./demo.js";
import { type GlossaryResources, setup } from "./setup.js";
import { lookupTerm } from "./tools/lookup-term.js";
import { VERSION } from "./version.js";

/** Options of {@link createGlossaryPlugin}: defaults that environment variables and host config override. */
export type GlossaryPluginOptions = PluginOptions<typeof glossaryConfig>;

/**
 * The glossary plugin: `glossary_lookup_term`, the `quiver glossary add` command and a demo glossary.
 *
 * @example
 * catalog.register(createGlossaryPlugin({ file: "./glossary.jsonl" }));
 */
export const createGlossaryPlugin = (options: GlossaryPluginOptions = {}) =>
  definePlugin<GlossaryConfig, GlossaryResources>({
    id: "glossary",
    version: VERSION,
    description: "Definitions of the team's terms of art, from a JSON Lines glossary file.",
    config: glossaryConfig,
    defaults: options,
    tools: [lookupTerm],
    setup,
    commands: [add],
    demo,
  });

export type { GlossaryConfig } from "./config.js";
export type { GlossaryResources } from "./setup.js";
export { VERSION };
export default createGlossaryPlugin();
