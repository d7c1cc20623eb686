import { copyFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { PluginDemo } from "@quiver/core";
import { readGlossary } from "./internal/glossary-file.js";
import { VERSION } from "./version.js";

const demoGlossary = fileURLToPath(new URL("../demo/glossary.jsonl", import.meta.url));

/** Demo mode: serves a copy of the glossary shipped in demo/, unless GLOSSARY_FILE names the user's own. */
export const demo: PluginDemo = {
  skipWhenSet: ["GLOSSARY_FILE"],
  data: [demoGlossary],
  seed: async (ctx) => {
    const entry = ctx.cached("glossary.jsonl", { tag: `glossary@${VERSION}`, files: [demoGlossary] });
    if (!entry.fresh) {
      await copyFile(demoGlossary, entry.path);
      await entry.markFresh();
    }
    const terms = readGlossary(entry.path).size;
    return {
      options: { file: entry.path },
      message: `glossary: ${terms} demo terms ${entry.fresh ? "reused from" : "copied to"} ${entry.path}`,
    };
  },
};
