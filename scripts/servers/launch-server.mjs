// How the servers' tests start a bundled server: as an MCP client does, a process spoken to over
// stdio by the MCP SDK's client, with no key of this machine's environment.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { root } from "./served-plugins.mjs";

/** The built entry of the server of plugin `id`. */
export const mainOf = (id) => join(root, "packages", "servers", id, "dist", "main.js");

/** Only PATH from this process: no key of the machine's environment reaches the server. */
export const envOf = (extra = {}) => ({ PATH: process.env.PATH ?? "", ...extra });

/**
 * Starts a server with the SDK's stdio client (the built `dist/main.js`, or `command`/`args` as a
 * bundle's manifest says); resolves with the connected client and its stderr so far.
 *
 * @example
 * const { client } = await launch("fda"); await client.listTools(); await client.close();
 */
export const launch = async (id, env = {}, command = process.execPath, args = [mainOf(id)], cwd) => {
  const transport = new StdioClientTransport({ command, args, env: envOf(env), stderr: "pipe", cwd });
  const out = { stderr: "" };
  transport.stderr?.on("data", (d) => {
    out.stderr += d;
  });
  const client = new Client({ name: "servers-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, out };
};

/** The text of a tool result's content blocks. */
export const textOf = (result) => result.content.map((c) => c.text ?? "").join("\n");
