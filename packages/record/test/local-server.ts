import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A real HTTP server on 127.0.0.1 for the client's tests. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Every request seen, with the client port of its socket. */
  readonly seen: Array<{
    method: string;
    url: string;
    headers: IncomingMessage["headers"];
    remotePort: number;
  }>;
  /** Resolves when a request's socket closes (for abort tests). */
  readonly socketClosed: Promise<void>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** Starts a server on 127.0.0.1:0 that reads each request body, then calls `handler`. */
export const startServer = async (handler: Handler): Promise<LocalServer> => {
  const seen: LocalServer["seen"] = [];
  const sockets = new Set<Socket>();
  let onSocketClosed: () => void = () => {};
  const socketClosed = new Promise<void>((resolve) => {
    onSocketClosed = resolve;
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        remotePort: req.socket.remotePort ?? 0,
      });
      handler(req, res, Buffer.concat(chunks).toString("utf8"));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      onSocketClosed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    socketClosed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** A port that was just free and is now closed: connecting to it is refused. */
export const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

/** Sends a JSON response. */
export const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};
