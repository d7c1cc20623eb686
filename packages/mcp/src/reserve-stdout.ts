import { Writable } from "node:stream";

/** Standard output kept for one stream: see {@link reserveStdout}. */
export interface ReservedStdout {
  /** Writes to the real standard output: give it to the transport (or the JSON printer), and only to it. */
  readonly channel: Writable;
  /** Ends this reservation; when it was the last one, `process.stdout.write` behaves as before. */
  readonly release: () => void;
}

interface Reservation {
  readonly channel: Writable;
  readonly restore: () => void;
  holders: number;
}

let active: Reservation | undefined;

const reserve = (): Reservation => {
  const stdout = process.stdout;
  const own = Object.hasOwn(stdout, "write") ? stdout.write : undefined;
  const write = stdout.write.bind(stdout);
  // Errors of the real stdout (EPIPE when the reader has gone) are reported on process.stdout, by
  // whoever handles them there; the channel itself never fails.
  const channel = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      write(chunk, () => done());
    },
  });
  const toStderr = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
  stdout.write = toStderr;
  return {
    channel,
    holders: 0,
    restore: () => {
      if (stdout.write !== toStderr) return;
      if (own) stdout.write = own;
      else delete (stdout as { write?: unknown }).write;
    },
  };
};

/**
 * Keeps standard output for one stream: the MCP stream of a stdio server, or the one JSON document of
 * a command run with `--json`. From now on the returned `channel` writes to the real standard output,
 * and anything else that writes to `process.stdout` (a plugin's `console.log`, a library's notice)
 * goes to standard error instead, where it cannot break what the reader parses. The MCP spec says a
 * stdio server writes nothing but its messages there; a host that loads code it did not write cannot
 * promise that otherwise. Reservations nest: they share one channel, and stdout is given back when
 * the last is released.
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
  active ??= reserve();
  const reservation = active;
  reservation.holders++;
  let released = false;
  return {
    channel: reservation.channel,
    release: () => {
      if (released) return;
      released = true;
      reservation.holders--;
      if (reservation.holders === 0 && active === reservation) {
        reservation.restore();
        active = undefined;
      }
    },
  };
};
