import { watch } from "node:fs";
import { dirname } from "node:path";
import type { PluginSetup } from "@quiver/core";
import type { GlossaryConfig } from "./config.js";
import { appendGlossary, type GlossaryEntry, readGlossary, termKey } from "./internal/glossary-file.js";

/** What the glossary's tools and commands share: the terms in memory, kept in step with the file. */
export interface GlossaryResources {
  readonly lookup: (term: string) => GlossaryEntry | undefined;
  readonly terms: () => ReadonlyArray<string>;
  readonly add: (entries: ReadonlyArray<GlossaryEntry>) => Promise<void>;
}

/**
 * Loads the glossary file once per registration and watches its folder, so terms added by
 * `quiver glossary add` (or an editor) are seen without a restart; the watcher closes with the catalog.
 */
export const setup: PluginSetup<GlossaryConfig, GlossaryResources> = ({ config, onClose }) => {
  let entries = readGlossary(config.file);
  const watcher = watch(dirname(config.file), () => {
    try {
      entries = readGlossary(config.file);
    } catch {
      // A half-written file: keep the last good glossary until the next change.
    }
  });
  onClose(() => watcher.close());
  return {
    lookup: (term) => entries.get(termKey(term)),
    terms: () => [...entries.values()].map((e) => e.term),
    add: async (added) => {
      await appendGlossary(config.file, added);
      for (const e of added) entries.set(termKey(e.term), e);
    },
  };
};
