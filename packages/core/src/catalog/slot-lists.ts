import type { PluginResource, PluginResourceTemplate, ResourceDescriptor } from "../plugin-slots.js";
import type { Registry } from "./registry.js";
import type { PromptInfo, ResourceInfo, ResourceTemplateInfo } from "./slot-types.js";

/** A slot's descriptor fields, without its functions. */
const descriptor = (r: ResourceDescriptor): ResourceDescriptor => ({
  name: r.name,
  ...(r.title !== undefined ? { title: r.title } : {}),
  ...(r.description !== undefined ? { description: r.description } : {}),
  ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
  ...(r.size !== undefined ? { size: r.size } : {}),
});

/** Every registered plugin's resources at fixed URIs, in registration order. */
export const resourcesOf = (registry: Registry): ResourceInfo[] =>
  [...registry.plugins()].flatMap(({ plugin }) =>
    (plugin.resources ?? []).map((r: PluginResource<any, any>) => ({
      ...descriptor(r),
      uri: r.uri,
      plugin: plugin.id,
    })),
  );

/** Every registered plugin's resource templates, with the variables each completes. */
export const templatesOf = (registry: Registry): ResourceTemplateInfo[] =>
  [...registry.plugins()].flatMap(({ plugin }) =>
    (plugin.resourceTemplates ?? []).map((t: PluginResourceTemplate<any, any>) => ({
      ...descriptor(t),
      uriTemplate: t.uriTemplate,
      plugin: plugin.id,
      completes: Object.keys(t.complete ?? {}),
    })),
  );

/** Every registered plugin's prompts, with their arguments. */
export const promptsOf = (registry: Registry): PromptInfo[] =>
  [...registry.plugins()].flatMap(({ plugin }) =>
    (plugin.prompts ?? []).map((p) => ({
      name: p.name,
      ...(p.title !== undefined ? { title: p.title } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
      arguments: (p.arguments ?? []).map((a) => ({
        name: a.name,
        ...(a.description !== undefined ? { description: a.description } : {}),
        ...(a.required !== undefined ? { required: a.required } : {}),
        completes: a.complete !== undefined,
      })),
      plugin: plugin.id,
    })),
  );
