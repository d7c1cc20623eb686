import { type AddressInfo, createServer } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: it binds port 0, then closes it. For a server a
 * test starts itself on a known port, or for an address nothing listens on.
 *
 * @example
 * const port = await freePort();
 */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
};

/**
 * Returns an `http://127.0.0.1:<port>` URL on which nothing listens: it binds a free port, then
 * closes it. Requests to it fail with ECONNREFUSED.
 *
 * Use it for "connection refused" tests (an upstream that is down). The OS could in principle hand
 * the port to another process in between; in practice ephemeral ports are not reused that fast.
 *
 * @example
 * const plugin = createFdaPlugin({ baseUrl: await closedUrl() });
 * expect((await call(plugin)).status).toBe("unavailable");
 */
export const closedUrl = async (): Promise<string> => `http://127.0.0.1:${await freePort()}`;
