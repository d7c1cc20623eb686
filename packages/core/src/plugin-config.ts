import * as Redacted from "effect/Redacted";
import type { PluginDefinition } from "./define-plugin.js";
import { pluginSettings } from "./plugin-settings.js";

/** The outcome of reading a plugin's settings. */
export type PluginConfigResult<Config> =
  | { readonly ok: true; readonly config: Config; readonly secrets: ReadonlyArray<Redacted.Redacted<string>> }
  | {
      readonly ok: false;
      /** One line for people and models: what is missing or wrong. */
      readonly message: string;
      /** Environment variables that would fix it. */
      readonly missing: ReadonlyArray<string>;
    };

/**
 * Reads a plugin's settings: explicit options win over environment variables (each setting's `env`,
 * see `pluginSettings`), which win over the plugin's defaults. Secrets found in the result are
 * returned so the runtime can redact them from every message.
 *
 * @example
 * resolvePluginConfig(plugin, {}, { PERPLEXITY_API_KEY: "pplx-…" }) // { ok: true, config: { apiKey: <redacted>, ... } }
 */
export const resolvePluginConfig = <Config, Resources = unknown>(
  plugin: PluginDefinition<Config, Resources>,
  options: Readonly<Record<string, unknown>> = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): PluginConfigResult<Config> => {
  if (!plugin.config) return { ok: true, config: undefined as Config, secrets: [] };
  const variables = new Map(
    pluginSettings(plugin).flatMap((s) => (s.env ? [[s.field, s.env] as const] : [])),
  );
  const raw: Record<string, unknown> = { ...definedOnly(plugin.defaults ?? {}) };
  for (const [field, variable] of variables) {
    const value = env[variable];
    if (value !== undefined && value !== "") raw[field] = value;
  }
  Object.assign(raw, definedOnly(options));
  // Parsed once per plugin at start-up: zod's eval-compiled fast path would cost more to build than
  // it saves on one parse, so this parse runs without it.
  const parsed = plugin.config.safeParse(raw, { jitless: true });
  if (parsed.success) return { ok: true, config: parsed.data, secrets: collectSecrets(parsed.data) };
  const missing: string[] = [];
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.join(".");
    const variable = variables.get(String(issue.path[0]));
    if (variable && raw[String(issue.path[0])] === undefined) {
      missing.push(variable);
      return `${variable} is not set`;
    }
    return `${field || "config"}: ${issue.message}`;
  });
  return { ok: false, message: `Plugin "${plugin.id}" is not configured: ${problems.join("; ")}.`, missing };
};

const definedOnly = (record: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));

const collectSecrets = (
  value: unknown,
  out: Redacted.Redacted<string>[] = [],
): Redacted.Redacted<string>[] => {
  if (Redacted.isRedacted(value)) out.push(value as Redacted.Redacted<string>);
  else if (value && typeof value === "object") for (const v of Object.values(value)) collectSecrets(v, out);
  return out;
};
