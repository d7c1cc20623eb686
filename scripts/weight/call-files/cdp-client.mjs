// A minimal Chrome DevTools Protocol client over Node's global WebSocket: `send(method, params)`
// resolves with the result of the answer carrying the same id. Why by hand: the protocol is one JSON
// message per command, and `ws` or chrome-remote-interface would be a dependency for a dozen lines.

/**
 * Connects to an inspector's WebSocket URL (`ws://127.0.0.1:<port>/<uuid>`, printed by
 * `node --inspect` on stderr).
 *
 * @example
 * const cdp = await connectCdp(url);
 * await cdp.send("Profiler.enable");
 * cdp.close();
 */
export const connectCdp = (url) =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const pending = new Map();
    let nextId = 1;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data));
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message}`));
      else waiter.resolve(message.result);
    });
    socket.addEventListener("close", () => {
      for (const waiter of pending.values()) waiter.reject(new Error("inspector connection closed"));
      pending.clear();
    });
    socket.addEventListener("error", () => reject(new Error(`cannot connect to the inspector at ${url}`)), {
      once: true,
    });
    socket.addEventListener(
      "open",
      () =>
        resolve({
          send: (method, params = {}) =>
            new Promise((res, rej) => {
              const id = nextId++;
              pending.set(id, { resolve: res, reject: rej, method });
              socket.send(JSON.stringify({ id, method, params }));
            }),
          close: () => socket.close(),
        }),
      { once: true },
    );
  });
