import { describe, expect, it } from "vitest";
import { cassettePath } from "../http/record/cassette-file.js";
import { stringifyCassette } from "../http/record/stable-json.js";
import { canonicalJson } from "./canonical-json.js";

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

  // The names of the cassettes committed under packages/plugins/alphafold/test/cassettes: a change of
  // the canonical text would orphan every recorded cassette, so it must be a deliberate re-recording.
  it("names cassettes as before (committed cassettes keep replaying)", () => {
    const path = (input: unknown) => cassettePath("c", "alphafold_predict_structure", input);
    expect(path({ uniprot_accession: "P04637", structure_format: "pdb" })).toBe(
      "c/alphafold_predict_structure/eda8ee52b3639970.json",
    );
    expect(path({ structure_format: "pdb", uniprot_accession: "Q7Z6M3" })).toBe(
      "c/alphafold_predict_structure/b957e090acd8db8a.json",
    );
    expect(path({ sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ", structure_format: "pdb" })).toBe(
      "c/alphafold_predict_structure/4348c0f35843c751.json",
    );
  });

  it("writes cassettes with sorted keys but the upstream's order inside response_json", () => {
    const text = stringifyCassette({
      tool: "t",
      input: { z: 1, a: 2 },
      interactions: [
        { url: "https://x.test/", method: "GET", status: 200, response_json: { z: 1, a: { y: 2, b: 3 } } },
      ],
    });
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(["input", "interactions", "tool"]);
    expect(Object.keys(parsed.input)).toEqual(["a", "z"]);
    expect(Object.keys(parsed.interactions[0])).toEqual(["method", "response_json", "status", "url"]);
    expect(Object.keys(parsed.interactions[0].response_json)).toEqual(["z", "a"]);
    expect(Object.keys(parsed.interactions[0].response_json.a)).toEqual(["y", "b"]);
    expect(text.endsWith("}\n")).toBe(true);
  });
});
