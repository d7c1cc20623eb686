import type { AnyPlugin } from "@quiver/core";
import { settingsProblem } from "./check-settings.js";
import { parseServerArgs } from "./parse-server-args.js";
import { serveOnePlugin } from "./serve-one-plugin.js";
import { serverHelp } from "./server-help.js";
import type { ServerIdentity } from "./server-identity.js";

/** Exit codes: 2 a wrong argument, 78 (EX_CONFIG) a setting missing or invalid. */
const EXIT = { ok: 0, usage: 2, config: 78 } as const;

/**
 * The command line of a bundled one-plugin server: `--help`, `--version`, stdio by default,
 * Streamable HTTP with `--port`. A missing or invalid setting stops it before it serves, with one
 * line on stderr naming the environment variable. Standard output carries MCP alone; every other
 * line goes to stderr. Resolves with the exit code once the server has stopped (stdin closed, or
 * SIGINT/SIGTERM).
 *
 * @example
 * process.exitCode = await runServerCli(fdaPlugin, { name: "@quiver/fda-mcp", version: "0.1.0", bin: "quiver-fda-mcp" });
 */
export const runServerCli = async (
  plugin: AnyPlugin,
  server: ServerIdentity,
  argv: ReadonlyArray<string> = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> => {
  const log = (line: string) => process.stderr.write(`${server.bin}: ${line}\n`);
  const args = parseServerArgs(argv);
  if (args.kind === "error") {
    log(`${args.message}. See ${server.bin} --help.`);
    return EXIT.usage;
  }
  if (args.kind === "help") {
    process.stdout.write(serverHelp(plugin, server));
    return EXIT.ok;
  }
  if (args.kind === "version") {
    process.stdout.write(`${server.version}\n`);
    return EXIT.ok;
  }
  const problem =
    settingsProblem(plugin, env) ??
    (server.needsPrincipal && !env.QUIVER_PRINCIPAL?.trim()
      ? `QUIVER_PRINCIPAL is not set: the plugin "${plugin.id}" answers only a named caller. Set QUIVER_PRINCIPAL (who the calls are made as) in the "env" of this server in your MCP client's configuration.`
      : undefined);
  if (problem) {
    log(problem);
    return EXIT.config;
  }
  const running = await serveOnePlugin(plugin, {
    server,
    transport: args,
    env,
    onError: (e) => log(`mcp: ${e.message}`),
  });
  log(
    running.url
      ? `${plugin.id} ${plugin.version} over MCP Streamable HTTP at ${running.url}`
      : `${plugin.id} ${plugin.version} over MCP stdio`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    // The client closing stdin is how a stdio server is told to stop.
    if (args.kind === "stdio") process.stdin.once("end", stop);
  });
  await running.close();
  return EXIT.ok;
};
