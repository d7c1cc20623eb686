import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { readNodeBody, toWebRequest, writeWebResponse } from "./node-http.js";

/** A server whose handler gets each exchange; resolves with its URL and a closer. */
const serve = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

describe("toWebRequest", () => {
  it("leaves the signal alone when the response completes, and aborts it when the client leaves first", async () => {
    const signals: AbortSignal[] = [];
    const closed: Array<Promise<void>> = [];
    const up = await serve((req, res) => {
      const web = toWebRequest(req, res, { body: false });
      signals.push(web.signal);
      closed.push(new Promise((r) => res.once("close", () => setImmediate(r))));
      if (req.url === "/quick") res.end("ok");
      // "/slow" never answers: the client goes away.
    });
    try {
      expect(await (await fetch(`${up.url}/quick`)).text()).toBe("ok");
      await closed[0];
      expect(signals[0]?.aborted).toBe(false);

      const gone = new AbortController();
      const pending = fetch(`${up.url}/slow`, { signal: gone.signal }).catch(() => undefined);
      await new Promise<void>(function wait(r) {
        if (signals.length === 2) r();
        else setTimeout(() => wait(r), 10);
      });
      gone.abort();
      await pending;
      await closed[1];
      expect(signals[1]?.aborted).toBe(true);
    } finally {
      await up.close();
    }
  });

  it("copies every header, repeated ones included, and carries the body unless told not to", async () => {
    const up = await serve(async (req, res) => {
      const web = toWebRequest(req, res);
      res.end(JSON.stringify({ via: web.headers.get("x-many"), body: await web.text() }));
    });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const req = request(`${up.url}/x`, { method: "POST", headers: { "x-many": ["a", "b"] } }, (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve(text));
        });
        req.on("error", reject);
        req.end("hello");
      });
      expect(JSON.parse(answer)).toEqual({ via: "a, b", body: "hello" });
    } finally {
      await up.close();
    }
  });
});

describe("readNodeBody", () => {
  it("reads the body as text, and reports a body over the limit as tooLarge", async () => {
    const up = await serve(async (req, res) => {
      res.end(JSON.stringify(await readNodeBody(req, 10)));
    });
    try {
      const post = async (body: string) => (await fetch(up.url, { method: "POST", body })).json();
      expect(await post("héllo")).toEqual({ tooLarge: false, text: "héllo" });
      expect(await post("x".repeat(11))).toEqual({ tooLarge: true });
    } finally {
      await up.close();
    }
  });
});

describe("writeWebResponse", () => {
  it("streams a slow body chunk by chunk with the headers sent first", async () => {
    let push: ((s: string) => void) | undefined;
    let end: (() => void) | undefined;
    const up = await serve((_req, res) => {
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          push = (s) => c.enqueue(new TextEncoder().encode(s));
          end = () => c.close();
        },
      });
      void writeWebResponse(new Response(body, { headers: { "content-type": "text/event-stream" } }), res);
    });
    try {
      // Nothing written yet: the headers still arrive, so the client sees the stream open.
      const res = await fetch(up.url);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const reader = res.body!.getReader();
      push!("data: 1\n\n");
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\n\n");
      push!("data: 2\n\n");
      end!();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 2\n\n");
      expect((await reader.read()).done).toBe(true);
    } finally {
      await up.close();
    }
  });
});
