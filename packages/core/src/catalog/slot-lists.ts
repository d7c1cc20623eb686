import type { Registry } from "./registry.js";
import type { PromptInfo, ResourceInfo, ResourceTemplateInfo } from "./slot-types.js";

/** Every registered plugin's resources at fixed URIs (their descriptors, without `read`), in registration order. */
export const resourcesOf = (registry: Registry): ResourceInfo[] =>
  [...registry.plugins()].flatMap(({ plugin }) =>
    (plugin.resources ?? []).map(({ read: _, ...r }) => ({ ...r, plugin: plugin.id })),
  );

/** Every registered plugin's resource templates, with the variables each completes. */
export const templatesOf = (registry: Registry): ResourceTemplateInfo[] =>
  [...registry.plugins()].flatMap(({ plugin }) =>
    (plugin.resourceTemplates ?? []).map(({ read: _, complete, ...t }) => ({
      ...t,
      plugin: plugin.id,
      completes: Object.keys(complete ?? {}),
    })),
  );

/** Every registered plugin's prompts, with their arguments (whether each completes, not how). */
export const promptsOf = (registry: Registry): PromptInfo[] =>
  [...registry.plugins()].flatMap(({ plugin }) =>
    (plugin.prompts ?? []).map(({ get: _, arguments: args = [], ...p }) => ({
      ...p,
      arguments: args.map(({ complete, ...a }) => ({ ...a, completes: complete !== undefined })),
      plugin: plugin.id,
    })),
  );
