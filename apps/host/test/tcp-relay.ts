import { once } from "node:events";
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";

/**
 * A TCP relay on 127.0.0.1 to a server (PostgreSQL here) that can be stopped and started on the same
 * port: an outage as the clients see it (connections cut, new ones refused) without stopping the
 * shared server.
 */
export const startTcpRelay = async (targetHost: string, targetPort: number) => {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = async (port: number) => {
    server = createServer((client) => {
      const upstream = tcpConnect(targetPort, targetHost);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
        s.on("error", () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    server.listen(port, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    return typeof address === "object" && address ? address.port : 0;
  };
  const port = await listen(0);
  return {
    port,
    /** Cuts every connection and refuses new ones. */
    stop: async () => {
      for (const s of sockets) s.destroy();
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    /** Accepts connections again on the same port. */
    start: () => listen(port).then(() => undefined),
  };
};
