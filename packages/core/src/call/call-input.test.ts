import { describe, expect, it } from "vitest";
import { canonicalJson } from "./call-input.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: [3, { f: 1, e: 0 }] }] })).toBe(
      '{"a":[{"c":[3,{"e":0,"f":1}],"d":2}],"b":1}',
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });

  it("writes what JSON.stringify writes for the values JSON has (toJSON, undefined, NaN, __proto__)", () => {
    const date = new Date(0);
    expect(canonicalJson({ at: date, skip: undefined, n: Number.NaN, list: [undefined] })).toBe(
      '{"at":"1970-01-01T00:00:00.000Z","list":[null],"n":null}',
    );
    expect(canonicalJson(JSON.parse('{"z":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"z":1}');
  });

  it("never throws: a circular value and a bigint become text", () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(canonicalJson(loop)).toBe('{"a":1,"self":"[Circular: 0]"}');
    expect(canonicalJson({ big: 2n })).toBe('{"big":2}');
  });
});
