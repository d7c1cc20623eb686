import { describe, expect, it } from "vitest";
import { cassettePath } from "../src/cassette-file.js";
import { stringifyCassette } from "../src/stable-json.js";

describe("cassette files", () => {
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
