import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { errors, request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ALL_FAULT_KINDS, FAULT_KINDS, type Fault } from "../src/emulator/faults.js";
import { type Emulator, startEmulator } from "../src/emulator/start-emulator.js";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
});
afterEach(() => up.reset());
afterAll(() => up.close());

const BODY = { results: [{ id: 1, name: "semaglutide" }] };
const routeSearch = () => up.route("GET", "/search", { json: BODY });

/** Rejection reason of a promise, or a failure when it resolves. */
const rejection = async (p: Promise<unknown>): Promise<Error & { code?: string; cause?: unknown }> => {
  try {
    await p;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a rejection");
};

/** The raw bytes of a response body (undici's `request` does not decode). */
const bytesOf = async (res: Awaited<ReturnType<typeof request>>): Promise<Buffer> =>
  Buffer.from(await res.body.arrayBuffer());

describe("encoded", () => {
  const decoders = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync } as const;
  it.each(["gzip", "deflate", "br"] as const)("sends the normal body %s-encoded", async (encoding) => {
    routeSearch();
    up.fault("GET", "/search", { kind: "encoded", encoding });
    const res = await request(`${up.url}/search`);
    expect(res.headers["content-encoding"]).toBe(encoding);
    expect(res.headers["content-type"]).toBe("application/json");
    const raw = await bytesOf(res);
    expect(raw.toString("utf8")).not.toContain("semaglutide");
    expect(JSON.parse(decoders[encoding](raw).toString("utf8"))).toEqual(BODY);
  });

  it("is decoded by fetch", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "encoded", encoding: "gzip" });
    expect(await (await fetch(`${up.url}/search`)).json()).toEqual(BODY);
  });
});

describe("bom", () => {
  it("puts a UTF-8 byte-order mark before the normal body", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "bom" });
    const raw = await bytesOf(await request(`${up.url}/search`));
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(JSON.parse(raw.subarray(3).toString("utf8"))).toEqual(BODY);
  });
});

describe("redirect", () => {
  it("answers 302 with the location by default, and another status when asked", async () => {
    up.fault("GET", "/search", { kind: "redirect", location: "http://169.254.169.254/latest/meta-data/" });
    up.fault("GET", "/moved", { kind: "redirect", location: "/search", status: 308 });
    const res = await request(`${up.url}/search`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("http://169.254.169.254/latest/meta-data/");
    const moved = await request(`${up.url}/moved`);
    expect(moved.statusCode).toBe(308);
    expect(moved.headers.location).toBe("/search");
  });
});

describe("stall", () => {
  it("sends the headers and the first bytes, then nothing more", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "stall", afterBytes: 5 });
    const res = await request(`${up.url}/search`, { bodyTimeout: 500 });
    expect(res.statusCode).toBe(200);
    const received: Buffer[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of res.body) received.push(chunk as Buffer);
      })(),
    );
    expect(error).toBeInstanceOf(errors.BodyTimeoutError);
    expect(Buffer.concat(received).toString()).toBe(JSON.stringify(BODY).slice(0, 5));
  });
});

describe("headersNever", () => {
  it("accepts the request and never sends headers, like hang", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "headersNever" });
    const error = await rejection(request(`${up.url}/search`, { headersTimeout: 300 }));
    expect(error).toBeInstanceOf(errors.HeadersTimeoutError);
  });
});

describe("oversizedHeaders", () => {
  it("sends headers beyond undici's limit", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "oversizedHeaders" });
    const error = await rejection(request(`${up.url}/search`));
    expect(error.code).toBe("UND_ERR_HEADERS_OVERFLOW");
  });

  it("sends a padding header of the size asked", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "oversizedHeaders", bytes: 1000 });
    const res = await request(`${up.url}/search`);
    expect(res.headers["x-padding"]).toHaveLength(1000);
    expect(await res.body.json()).toEqual(BODY);
  });
});

describe("reset", () => {
  it("can reset the connection right after the headers", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "reset", when: "afterHeaders" });
    const error = await rejection(
      (async () => {
        const res = await request(`${up.url}/search`);
        expect(res.statusCode).toBe(200);
        await res.body.text();
      })(),
    );
    expect(error.code ?? (error.cause as { code?: string })?.code).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
  });
});

describe("bomb", () => {
  it("sends a small gzip body that decodes to 64 MiB of JSON", async () => {
    up.fault("GET", "/search", { kind: "bomb" });
    const res = await request(`${up.url}/search`);
    expect(res.headers["content-encoding"]).toBe("gzip");
    const raw = await bytesOf(res);
    expect(raw.length).toBeLessThan(200 * 1024);
    const decoded = gunzipSync(raw);
    expect(decoded.length).toBe(64 * 1024 * 1024);
    expect(decoded.subarray(0, 9).toString()).toBe('{"data":"');
  });

  it("takes a size and a lower ratio", async () => {
    up.fault("GET", "/search", { kind: "bomb", bytes: 1024 * 1024, ratio: 10 });
    const raw = await bytesOf(await request(`${up.url}/search`));
    expect(gunzipSync(raw).length).toBe(1024 * 1024);
    const ratio = (1024 * 1024) / raw.length;
    expect(ratio).toBeGreaterThan(5);
    expect(ratio).toBeLessThan(30);
  });
});

describe("errorObject", () => {
  it("answers 200 with a JSON error object", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "errorObject" });
    const res = await request(`${up.url}/search`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ error: { message: "internal error (emulated)", code: 500 } });
  });

  it("takes a status, message and code", async () => {
    up.fault("GET", "/search", { kind: "errorObject", status: 400, message: "bad index", code: "E1" });
    const res = await request(`${up.url}/search`);
    expect(res.statusCode).toBe(400);
    expect(await res.body.json()).toEqual({ error: { message: "bad index", code: "E1" } });
  });
});

describe("emptyBody", () => {
  it.each([200, 502])("answers %i with an empty JSON body", async (status) => {
    routeSearch();
    up.fault("GET", "/search", { kind: "emptyBody", status });
    const res = await request(`${up.url}/search`);
    expect(res.statusCode).toBe(status);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["content-length"]).toBe("0");
    expect(await res.body.text()).toBe("");
  });
});

it("every kind beyond FAULT_KINDS is covered by a test above", () => {
  const covered: Fault["kind"][] = [
    "encoded",
    "bom",
    "redirect",
    "stall",
    "headersNever",
    "oversizedHeaders",
    "bomb",
    "errorObject",
    "emptyBody",
  ];
  expect(ALL_FAULT_KINDS.filter((k) => !(FAULT_KINDS as string[]).includes(k)).sort()).toEqual(
    [...covered].sort(),
  );
});
