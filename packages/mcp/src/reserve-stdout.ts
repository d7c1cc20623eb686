import { Writable } from "node:stream";

/** Standard output kept for the MCP stream: see {@link reserveStdout}. */
export interface ReservedStdout {
  /** Writes to the real standard output: give it to the transport, and only to it. */
  readonly channel: Writable;
  /** Gives `process.stdout.write` back its own behaviour. */
  readonly release: () => void;
}

/**
 * Keeps standard output for the MCP stream of a stdio server: from now on the returned `channel`
 * writes to the real standard output, and anything else that writes to `process.stdout` (a plugin's
 * `console.log`, a library's notice) goes to standard error instead, where it cannot break the
 * client's JSON-RPC stream. The MCP spec says a stdio server writes nothing but its messages there;
 * a host that loads code it did not write cannot promise that otherwise.
 *
 * Written by hand: no library guards the channel, and Node's console has no switch for it.
 * `process.stdout.write` is replaced (not the console), so every writer through it is covered.
 *
 * @example
 * const stdout = reserveStdout();
 * const transport = new StdioServerTransport(process.stdin, stdout.channel);
 * // … on close: stdout.release()
 */
export const reserveStdout = (): ReservedStdout => {
  const stdout = process.stdout;
  const own = Object.hasOwn(stdout, "write") ? stdout.write : undefined;
  const write = stdout.write.bind(stdout);
  const channel = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      write(chunk, done);
    },
  });
  const toStderr: typeof stdout.write = (chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest);
  stdout.write = toStderr;
  return {
    channel,
    release: () => {
      if (stdout.write !== toStderr) return;
      if (own) stdout.write = own;
      else delete (stdout as { write?: unknown }).write;
    },
  };
};
