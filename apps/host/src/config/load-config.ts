import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import { closestMatches } from "@quiver/core";
import type { z } from "zod";
import { ConfigError } from "./config-error.js";
import type { ConfigFile } from "./config-schema.js";
import { keysAt } from "./schema-keys.js";

/** The names looked for in the working directory, in order. */
export const CONFIG_FILE_NAMES = ["quiver.config.json", "quiver.config.yaml", "quiver.config.yml"] as const;

/** A config file found and validated. */
export interface LoadedConfig {
  /** Absolute path of the file, or undefined when there is none. */
  readonly path: string | undefined;
  readonly config: ConfigFile;
}

/**
 * Finds the config file: an explicit path (flag or QUIVER_CONFIG) must exist; otherwise the first of
 * `quiver.config.json`, `.yaml`, `.yml` in `cwd`, or none.
 *
 * @example
 * findConfigFile("/srv/app") // "/srv/app/quiver.config.json" | undefined
 */
export const findConfigFile = (cwd: string, explicit?: string, origin = "--config"): string | undefined => {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path)) throw new ConfigError([`${origin}: the config file ${path} does not exist.`]);
    return path;
  }
  for (const name of CONFIG_FILE_NAMES) {
    const path = resolve(cwd, name);
    if (existsSync(path)) return path;
  }
  return undefined;
};

/** ` (did you mean "x"?)` for an unknown key, when a valid key at that place is near it. */
const nearest = (schema: unknown, path: ReadonlyArray<PropertyKey>, key: string): string => {
  const keys = keysAt(schema, path);
  const near = closestMatches(keys, key, { limit: 1, maxDistance: Math.max(2, Math.ceil(key.length / 3)) });
  return near.length > 0
    ? ` (did you mean "${near[0]}"?)`
    : keys.length > 0
      ? ` (valid: ${keys.join(", ")})`
      : "";
};

/**
 * Formats zod issues as `file: key.path: message` lines; an unknown key names the closest valid one
 * when the schema is given.
 */
export const formatIssues = (
  where: string,
  issues: ReadonlyArray<z.core.$ZodIssue>,
  schema?: unknown,
): string[] =>
  issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const at = path ? `${where}: ${path}` : where;
    if (issue.code === "unrecognized_keys") {
      return `${at}: unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys
        .map((k) => `"${k}"${schema === undefined ? "" : nearest(schema, issue.path, k)}`)
        .join(", ")}`;
    }
    if (issue.code === "invalid_union") {
      return `${at}: ${unionMessage(issue)}`;
    }
    return `${at}: ${issue.message}`;
  });

const unionMessage = (issue: z.core.$ZodIssueInvalidUnion): string => {
  // Report the branch that got furthest (the object form, usually) rather than "invalid input".
  const branches = issue.errors.filter((b) => b.length > 0);
  const best = branches.sort((a, b) => depth(b) - depth(a))[0];
  if (!best) return issue.message;
  const first = best[0]!;
  const sub = first.path.map(String).join(".");
  const text =
    first.code === "unrecognized_keys"
      ? `unknown key ${first.keys.map((k) => `"${k}"`).join(", ")}`
      : first.message;
  return sub ? `${sub}: ${text}` : text;
};
const depth = (issues: ReadonlyArray<z.core.$ZodIssue>) => Math.max(...issues.map((i) => i.path.length));

/**
 * Reads and validates a config file (JSON or YAML by extension). Errors name the file, the line for
 * syntax errors, and the key for schema errors.
 *
 * @example
 * const { config } = await readConfigFile("/srv/app/quiver.config.yaml")
 */
export const readConfigFile = async (path: string): Promise<LoadedConfig> => {
  const name = basename(path);
  const text = await readFile(path, "utf8");
  let raw: unknown;
  const ext = extname(path).toLowerCase();
  if (ext === ".yaml" || ext === ".yml") {
    const { parseDocument } = await import("yaml");
    const doc = parseDocument(text, { prettyErrors: true });
    if (doc.errors.length > 0) {
      throw new ConfigError(doc.errors.map((e) => `${name}: ${e.message.split("\n")[0]}`));
    }
    raw = doc.toJS();
  } else {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new ConfigError([`${name}: not valid JSON: ${(error as Error).message}`]);
    }
  }
  if (raw === null || raw === undefined) raw = {};
  // The schema (and building it) loads only when there is a file to check: without one, start-up skips it.
  const { configFileSchema } = await import("./config-schema.js");
  // One parse per start: without zod's eval-compiled fast path, which costs more to build than it saves here.
  const parsed = configFileSchema.safeParse(raw, { jitless: true });
  if (!parsed.success) throw new ConfigError(formatIssues(name, parsed.error.issues, configFileSchema));
  return { path, config: parsed.data };
};

/**
 * Finds and reads the config file, or returns an empty config when there is none.
 *
 * @example
 * const { path, config } = await loadConfig(process.cwd(), flags.config ?? process.env.QUIVER_CONFIG)
 */
export const loadConfig = async (cwd: string, explicit?: string, origin?: string): Promise<LoadedConfig> => {
  const path = findConfigFile(cwd, explicit, origin);
  if (!path) return { path: undefined, config: {} };
  return readConfigFile(path);
};
