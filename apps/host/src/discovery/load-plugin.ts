import { pathToFileURL } from "node:url";
import { VERSION as CORE_VERSION } from "@quiver/core";
import { checkPluginShape } from "./check-shape.js";
import { checkCoreRange, coreRangeFor } from "./core-range.js";
import { type CoreCopy, coreCopyFrom } from "./host-install.js";
import type { LoadedPlugin, PluginCandidate, PluginProblem } from "./types.js";

const firstLine = (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.trim();
};

/**
 * Loads one candidate: checks its `@quiver/core` range against the host's core before importing it,
 * imports the module, takes its default export (calling it when it is a factory) and checks the
 * plugin's shape. Never throws: a failure comes back as a problem saying why and how to fix it.
 *
 * @example
 * const loaded = await loadPlugin(candidate)
 * if ("problem" in loaded) report(loaded.problem); else catalog.register(loaded.plugin.plugin)
 */
export const loadPlugin = async (
  candidate: PluginCandidate,
  hostCore: string = CORE_VERSION,
  hostCoreCopy?: CoreCopy,
): Promise<{ plugin: LoadedPlugin } | { problem: PluginProblem }> => {
  const name = candidate.package;
  // Two cores in one process: the plugin's tools, envelopes and secrets would come from another copy
  // of the contract than the catalog serving them (a cached npx host beside a project's plugins).
  const pluginCore = hostCoreCopy && candidate.dir ? coreCopyFrom(candidate.dir) : undefined;
  if (hostCoreCopy && pluginCore && pluginCore.dir !== hostCoreCopy.dir) {
    return {
      problem: {
        package: name,
        kind: "incompatible",
        message: `${name} imports its own @quiver/core ${pluginCore.version ?? ""} (${pluginCore.dir}), not the host's ${hostCoreCopy.version ?? ""} (${hostCoreCopy.dir}): two cores in one process.`,
        fix: `Install @quiver/host and ${name} together so they share one @quiver/core (in the project: npm install @quiver/host ${name}, then npx quiver …; with npx: npx -y -p @quiver/host -p ${name} quiver …).`,
      },
    };
  }
  const range = checkCoreRange(candidate.coreRange, hostCore);
  if (!range.ok) {
    return {
      problem: {
        package: name,
        kind: "incompatible",
        message: `${name}${candidate.version ? `@${candidate.version}` : ""} is not compatible: ${range.reason}.`,
        fix: `Install a version of ${name} built for @quiver/core ${coreRangeFor(hostCore)} (VERSIONING.md), or a @quiver/host whose core matches ${range.range}.`,
      },
    };
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(candidate.entry).href)) as Record<string, unknown>;
  } catch (error) {
    return {
      problem: {
        package: name,
        kind: "import_failed",
        message: `importing ${name} failed: ${firstLine(error)}`,
        fix: `Reinstall ${name} and its dependencies, or disable it ("plugins": { "<id>": false } in quiver.config.json); run with --verbose for the stack.`,
        ...(error instanceof Error && error.stack ? { detail: error.stack } : {}),
      },
    };
  }
  let value: unknown = mod.default ?? mod.plugin;
  if (typeof value === "function") {
    try {
      value = await (value as () => unknown)();
    } catch (error) {
      return {
        problem: {
          package: name,
          kind: "import_failed",
          message: `${name}'s default export (a plugin factory) threw: ${firstLine(error)}`,
          fix: `Export a plugin instance (export default create<Name>Plugin()) or fix the factory.`,
          ...(error instanceof Error && error.stack ? { detail: error.stack } : {}),
        },
      };
    }
  }
  const shape = checkPluginShape(value);
  if (!shape.ok) {
    return {
      problem: {
        package: name,
        kind: shape.kind,
        message: `${name}: ${shape.message}`,
        fix:
          shape.kind === "incompatible"
            ? `Upgrade @quiver/host, or install a version of ${name} for plugin specification v1.`
            : `${name} must \`export default definePlugin({ specificationVersion: "v1", id, version, tools })\` from its "quiver.plugin" module.`,
      },
    };
  }
  return { plugin: { candidate, plugin: shape.plugin, module: mod } };
};
