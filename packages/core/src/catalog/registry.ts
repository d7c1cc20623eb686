import type * as Clock from "effect/Clock";
import type { AnyPlugin } from "../define-plugin.js";
import type { HttpClient } from "../http/index.js";
import { makeRedactor, type Redactor } from "../http/redact.js";
import { resolvePluginConfig } from "../plugin-config.js";
import { slotsOf, taskSlotOf } from "../plugin-slots.js";
import { resolvePolicy } from "../policies/resolve-policy.js";
import { injectedFields } from "../runtime/injected-fields.js";
import { PluginResources } from "../runtime/plugin-resources.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { toolAliases } from "../runtime/tool-aliases.js";
import type { CatalogOptions, PluginInfo, ToolInfo } from "./catalog-types.js";

/** A registered plugin: its definition, what `register` reported, its settings and resources. */
export interface PluginEntry {
  readonly plugin: AnyPlugin;
  readonly info: PluginInfo;
  readonly config: unknown;
  readonly resources: PluginResources;
  /** Hides this plugin's secrets (and URL credentials) in text it produced, such as a setup error. */
  readonly redact: Redactor;
}

/** What the registry needs from the catalog: its policy overrides and aliases, and its world. */
export interface RegistryOptions extends Pick<CatalogOptions, "policies" | "aliases"> {
  readonly http: HttpClient;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The catalog's clock, for plugins' `setup` (loaded on demand: listing tools never loads Effect). */
  readonly clock: () => Promise<Clock.Clock>;
}

/** The catalog's registry: plugins, their tools by exposed name, and aliases. */
export type Registry = ReturnType<typeof createRegistry>;

/** The list entry of a tool. */
export const toolInfo = (reg: RegisteredTool): ToolInfo => ({
  name: reg.name,
  plugin: reg.pluginId,
  ...(reg.tool.title ? { title: reg.tool.title } : {}),
  description: reg.tool.description,
  category: reg.tool.category,
  annotations: reg.tool.annotations ?? {},
  available: reg.config.ok,
  ...taskSlotOf(reg.tool.task),
  ...(reg.tool.view ? { view: reg.tool.view } : {}),
  ...(reg.tool.visibility ? { visibility: reg.tool.visibility } : {}),
});

/** Creates an empty registry. */
export const createRegistry = (options: RegistryOptions) => {
  const tools = new Map<string, RegisteredTool>();
  const plugins = new Map<string, PluginEntry>();
  const aliases = toolAliases(options.aliases);
  const listeners = new Set<(removed: ReadonlyArray<string>) => void>();
  const liveAliases = () =>
    aliases.entries.flatMap(([alias, target]) => {
      const reg = tools.get(target);
      return reg ? [{ alias, reg }] : [];
    });
  // Rebuilt on every change, so a call's lookup is one Map read (a tool's own name before an alias).
  const named = new Map<string, RegisteredTool>();
  const notify = (removed: ReadonlyArray<string>) => {
    named.clear();
    for (const { alias, reg } of liveAliases()) named.set(alias, reg);
    for (const [name, reg] of tools) named.set(name, reg);
    for (const l of listeners) l(removed);
  };

  const unregister = (pluginId: string): boolean => {
    const entry = plugins.get(pluginId);
    if (!entry) return false;
    for (const name of entry.info.tools) tools.delete(name);
    plugins.delete(pluginId);
    notify(entry.info.tools);
    // Release what the registration opened (a bridged MCP server's process, open files); never throws.
    void entry.resources.close();
    return true;
  };

  const register = (plugin: AnyPlugin, pluginOptions: Readonly<Record<string, unknown>> = {}): PluginInfo => {
    const toolNames = plugin.tools.map((t) => t.name);
    aliases.checkTools(plugin.id, toolNames);
    if (plugins.has(plugin.id)) unregister(plugin.id);
    const resolved = resolvePluginConfig(plugin, pluginOptions, options.env);
    const config = resolved.ok ? resolved.config : undefined;
    const resources = new PluginResources(plugin, config, options.http, options.env, options.clock);
    const secrets = resolved.ok ? resolved.secrets : [];
    // Built once per plugin: every tool of it hides the same secrets.
    const redact = makeRedactor(secrets);
    const redactData = makeRedactor(secrets, { urls: false });
    const names = plugin.tools.map((tool) => {
      const name = tools.has(tool.name) ? `${plugin.id}_${tool.name}`.slice(0, 64) : tool.name;
      const policy = resolvePolicy(plugin.id, tool.annotations, tool.policy, {
        ...options.policies?.["*"],
        ...options.policies?.[tool.name],
        ...options.policies?.[name],
      });
      tools.set(name, {
        name,
        tool,
        pluginId: plugin.id,
        policy,
        destructive: Boolean(tool.annotations?.destructive),
        keysResults: policy.cache !== undefined || Boolean(policy.fallback?.stale),
        inject: injectedFields(tool),
        config: resolved,
        secrets,
        redact,
        redactData,
        resources,
      });
      return name;
    });
    const slots = slotsOf(plugin);
    const info: PluginInfo = {
      id: plugin.id,
      version: plugin.version,
      ...(plugin.description ? { description: plugin.description } : {}),
      status: resolved.ok ? "ready" : "unconfigured",
      ...(resolved.ok ? {} : { message: resolved.message }),
      missing: resolved.ok ? [] : resolved.missing,
      tools: names,
      ...(slots ? { slots } : {}),
    };
    plugins.set(plugin.id, { plugin, info, config, resources, redact });
    notify([]);
    return info;
  };

  return {
    register,
    /** Removes a plugin and its tools, and closes what its setup opened; false when unknown. */
    unregister,
    /** The registered tool a name (or an alias) stands for. */
    lookup: (name: string) => named.get(name),
    /** Every tool and live alias by the name a call gives: what a call looks its tool up in. */
    named: named as ReadonlyMap<string, RegisteredTool>,
    /** Every registered tool. */
    tools: () => tools.values(),
    /** Tool names and live aliases, for suggestions. */
    names: () => [...tools.keys(), ...liveAliases().map((a) => a.alias)],
    /** The aliases whose tool is registered, with that tool. */
    liveAliases,
    plugin: (id: string) => plugins.get(id),
    plugins: () => plugins.values(),
    /** Throws, naming each, when an alias stands for a tool that is not registered. */
    checkAliases: () => aliases.checkTargets((name) => tools.has(name)),
    /** Notified when tools are added or removed, with the names removed. */
    onChange: (listener: (removed: ReadonlyArray<string>) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
