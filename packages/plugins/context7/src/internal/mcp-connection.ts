import { isAbsolute, resolve } from "node:path";
import { connectMcpToolCaller, type McpToolCaller } from "@quiver/mcp";
import * as Redacted from "effect/Redacted";
import { CONTEXT7_ENV, type Context7Config } from "../config.js";

type Env = Readonly<Record<string, string | undefined>>;

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${NAME}` with the environment's value; an unset variable is an error naming it. */
const expand = (value: string, where: string, env: Env): string =>
  value.replace(VARIABLE, (_, name: string) => {
    const v = env[name];
    if (v === undefined || v === "") throw new Error(`${where} uses \${${name}}, which is not set.`);
    return v;
  });

const expandAll = (record: Readonly<Record<string, string>> | undefined, where: string, env: Env) =>
  Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expand(v, `${where}.${k}`, env)]));

/**
 * A lazily connected MCP client for the configured Context7 MCP server (`config.mcp`): the
 * connection opens at the first call, a lost one reconnects at the next (respawning a command that
 * exited). A spawned server gets the plugin's own settings (`CONTEXT7_API_KEY`, `CONTEXT7_API_URL`)
 * and runs in `cwd` (relative to this process's folder). Throws when a `${NAME}` is not set.
 */
export const connectContext7Mcp = (
  target: NonNullable<Context7Config["mcp"]>,
  config: Context7Config,
  env: Env,
): McpToolCaller => {
  if ("url" in target) {
    return connectMcpToolCaller({
      name: "context7",
      url: target.url,
      headers: expandAll(target.headers, "mcp.headers", env),
    });
  }
  const own: Record<string, string> = {};
  for (const name of Object.values(CONTEXT7_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== "") own[name] = value;
  }
  if (config.apiKey) own[CONTEXT7_ENV.apiKey] = Redacted.value(config.apiKey);
  return connectMcpToolCaller({
    name: "context7",
    command: target.command,
    args: (target.args ?? []).map((a, i) => expand(a, `mcp.args[${i}]`, env)),
    env: { ...own, ...expandAll(target.env, "mcp.env", env) },
    ...(target.cwd ? { cwd: isAbsolute(target.cwd) ? target.cwd : resolve(target.cwd) } : {}),
  });
};
