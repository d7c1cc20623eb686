import { parseArgs } from "node:util";

/** What the command line asks for: help, the version, or serving (stdio, or HTTP on a port). */
export type ServerArgs =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "stdio" }
  | { readonly kind: "http"; readonly port: number; readonly host: string }
  | { readonly kind: "error"; readonly message: string };

/**
 * Reads a server's arguments: none for stdio, `--port <n>` (and `--host`) for Streamable HTTP,
 * `--help`, `--version`. A wrong argument is an `error` with one line saying what is wrong.
 *
 * @example
 * parseServerArgs(["--port", "3333"]) // { kind: "http", port: 3333, host: "127.0.0.1" }
 */
export const parseServerArgs = (argv: ReadonlyArray<string>): ServerArgs => {
  let values: { port?: string; host?: string; help?: boolean; version?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: "string", short: "p" },
        host: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: "error", message: (error as Error).message };
  }
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  if (values.port === undefined)
    return values.host === undefined
      ? { kind: "stdio" }
      : { kind: "error", message: "--host needs --port (without --port the server speaks stdio)" };
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    return { kind: "error", message: `--port "${values.port}" is not a TCP port (0-65535)` };
  return { kind: "http", port, host: values.host ?? "127.0.0.1" };
};
