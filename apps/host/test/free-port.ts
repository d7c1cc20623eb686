import { once } from "node:events";
import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago (for a server a test starts itself). */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};
