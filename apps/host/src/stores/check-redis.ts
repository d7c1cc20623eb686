import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

/** The URL without user and password, for messages. */
export const redisDisplayUrl = (url: string): string => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}:${u.port || "6379"}`;
  } catch {
    return "the configured Redis URL";
  }
};

/**
 * Checks that a Redis server answers at `url`: connects (TLS for `rediss://`), sends PING and waits
 * for any reply (`+PONG`, or an error such as `-NOAUTH`: the server is there). Rejects with a message
 * that names the host and port, never the password.
 *
 * @example
 * await checkRedis("redis://127.0.0.1:6379") // throws "Redis at redis://127.0.0.1:6379 is unreachable: …"
 */
export const checkRedis = (url: string, timeoutMs = 2_000): Promise<void> => {
  const shown = redisDisplayUrl(url);
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      reject(new Error(`${shown} is not a valid URL.`));
      return;
    }
    const port = Number(u.port || 6379);
    const host = u.hostname.replace(/^\[|\]$/g, "");
    const socket: Socket =
      u.protocol === "rediss:" ? connectTls({ host, port, servername: host }) : connectTcp({ host, port });
    const done = (error?: string) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(new Error(`Redis at ${shown} is unreachable: ${error}.`));
      else resolve();
    };
    const timer = setTimeout(() => done(`no answer within ${timeoutMs} ms`), timeoutMs);
    socket.once(u.protocol === "rediss:" ? "secureConnect" : "connect", () => socket.write("PING\r\n"));
    socket.once("data", (chunk) => {
      const first = chunk.toString("utf8")[0];
      done(first === "+" || first === "-" ? undefined : "it does not speak the Redis protocol");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
};
