import { once } from "node:events";
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";

/** A TCP relay that can be taken down and brought back on the same port. */
export interface TcpRelay {
  /** The relay's port on 127.0.0.1. */
  readonly port: number;
  /** Cuts every connection and refuses new ones: an outage as the clients see it. */
  readonly stop: () => Promise<void>;
  /** Accepts connections again on the same port. */
  readonly start: () => Promise<void>;
  /** Stops the relay for good. */
  readonly close: () => Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 to a real server (Redis, PostgreSQL, ...) for outage tests: `stop()` cuts
 * connections and refuses new ones, `start()` brings it back on the same port, and the shared server
 * behind it is never stopped.
 *
 * @example
 * const relay = await startTcpRelay("127.0.0.1", 6379);
 * const url = `redis://127.0.0.1:${relay.port}`;
 * await relay.stop(); // Redis is "down" for the code under test
 * await relay.start(); // and back
 */
export const startTcpRelay = async (targetHost: string, targetPort: number): Promise<TcpRelay> => {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = async (port: number) => {
    const s = createServer((client) => {
      const upstream = tcpConnect(targetPort, targetHost);
      for (const end of [client, upstream]) {
        sockets.add(end);
        end.on("close", () => sockets.delete(end));
        end.on("error", () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    server = s;
    s.listen(port, "127.0.0.1");
    await once(s, "listening");
    const address = s.address();
    return typeof address === "object" && address ? address.port : 0;
  };
  const port = await listen(0);
  const stop = async () => {
    for (const s of sockets) s.destroy();
    const s = server;
    server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return { port, stop, start: () => listen(port).then(() => undefined), close: stop };
};
