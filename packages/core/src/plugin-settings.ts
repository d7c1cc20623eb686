import * as Redacted from "effect/Redacted";
import { z } from "zod";

/** What a setting declares besides its schema: where it is read from and whether it is a secret. */
export interface SettingMeta {
  /** The environment variable it is read from (`PERPLEXITY_API_KEY`). */
  readonly env?: string;
  /** A credential: parsed into `Redacted`, redacted from every message, marked secret in manifests. */
  readonly secret?: boolean;
}

/**
 * The registry of settings' declarations, keyed by schema (zod 4's `z.registry`): `setting` and
 * `secret` add to it, `pluginSettings` reads it.
 */
export const settingsRegistry = z.registry<SettingMeta>();

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Declares a plugin setting: the schema as is, with its environment variable recorded once, here.
 *
 * @example
 * baseUrl: setting(z.url().default("https://api.example.org"), { env: "EXAMPLE_BASE_URL" }).describe("Base URL.")
 */
export const setting = <S extends z.ZodType>(schema: S, meta: SettingMeta): S => {
  // A name no shell can set would never be read: refuse it where the plugin is written.
  if (meta.env !== undefined && !ENV_NAME.test(meta.env))
    throw new TypeError(`Setting env "${meta.env}" must be an environment variable name (${ENV_NAME}).`);
  settingsRegistry.add(schema, meta);
  return schema;
};

/**
 * A secret setting: a non-empty string (plain in the options and the environment) kept as
 * `Redacted`, so it never prints in a log or an error; `env` names its variable.
 *
 * @example
 * config: z.object({ apiKey: secret({ env: "PERPLEXITY_API_KEY" }).describe("Perplexity API key") })
 */
export const secret = (meta: Omit<SettingMeta, "secret"> = {}) =>
  setting(
    z
      .string()
      .min(1)
      .transform((value) => Redacted.make(value)),
    { ...meta, secret: true },
  );

/**
 * A secret's plain value, for a client that is not core's HTTP client (a database driver's URL, a
 * child process's environment). Never log or return it; for HTTP pass the `Redacted` value itself
 * (`bearer`, a header or a query value) and the client unwraps and redacts it.
 *
 * @example
 * const config = { databaseUrl: Redacted.make("postgres://u:p@db/quiver") };
 * const connectionString = reveal(config.databaseUrl); // for the database driver, never a log
 */
export const reveal = (secret: Redacted.Redacted<string> | string): string =>
  typeof secret === "string" ? secret : Redacted.value(secret);

/**
 * The options a `create<Name>Plugin(options)` takes: every setting optional, as its input type (a
 * secret as a plain string). Environment variables and the host's options win over them.
 *
 * @example
 * const weatherConfig = z.object({ apiKey: secret({ env: "WEATHER_API_KEY" }), units: z.enum(["metric", "imperial"]).default("metric") });
 * type WeatherPluginOptions = PluginOptions<typeof weatherConfig>; // { apiKey?: string; units?: "metric" | "imperial" }
 */
export type PluginOptions<S extends z.ZodType> = Readonly<Partial<z.input<S>>>;

/**
 * One setting of a plugin as its config schema declares it: what a host shows, checks and documents.
 * Manifests are generated from this list (MCP Registry `server.json` `environmentVariables[]` with
 * `isRequired`/`isSecret`, `.mcpb` `user_config` with `required`/`sensitive`).
 */
export interface PluginSetting {
  /** The config field (`apiKey`). */
  readonly field: string;
  /** Its environment variable, when it has one. */
  readonly env?: string;
  /** A credential (declared with `secret()`). */
  readonly secret: boolean;
  /** The plugin is unconfigured without it: no default, not optional. */
  readonly required: boolean;
  /** The value used when nothing sets it. */
  readonly default?: unknown;
  /** Its `.describe()` text. */
  readonly description?: string;
}

type Layer = z.ZodType & { readonly _zod: { readonly def: Record<string, unknown> } };

/** The schemas a field wraps (optional, default, pipe ...), outermost first. */
const layers = (schema: z.ZodType): Layer[] => {
  const out: Layer[] = [];
  for (let s: Layer | undefined = schema as Layer; s && out.length < 8; ) {
    out.push(s);
    const def = s._zod.def;
    s = (def.innerType ?? (def.type === "pipe" ? def.in : undefined)) as Layer | undefined;
  }
  return out;
};

/** The object shape of a config schema, or undefined when it is not a zod object. */
const shapeOf = (config: z.ZodType | undefined): Record<string, z.ZodType> | undefined => {
  for (const s of config ? layers(config) : []) if (s instanceof z.ZodObject) return s.shape;
  return undefined;
};

/**
 * The settings a plugin's config schema declares, in field order: environment variable, secret,
 * required, default and description of each top-level field.
 *
 * @example
 * pluginSettings(plugin) // [{ field: "apiKey", env: "PERPLEXITY_API_KEY", secret: true, required: true }, ...]
 */
export const pluginSettings = (plugin: {
  readonly config?: z.ZodType | undefined;
}): ReadonlyArray<PluginSetting> =>
  Object.entries(shapeOf(plugin.config) ?? {}).map(([field, schema]) => {
    const all = layers(schema);
    const meta = all.map((s) => settingsRegistry.get(s)).find((m) => m !== undefined) ?? {};
    const env = meta.env;
    const withDefault = all.find((s) => s._zod.def.type === "default" || s._zod.def.type === "prefault");
    const description = all.map((s) => s.description).find((d) => d !== undefined);
    return {
      field,
      ...(env === undefined ? {} : { env }),
      secret: meta.secret === true,
      required: schema._zod.optin === undefined,
      ...(withDefault ? { default: withDefault._zod.def.defaultValue } : {}),
      ...(description === undefined ? {} : { description }),
    };
  });
