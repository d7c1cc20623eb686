import { describe, expect, it } from "vitest";
import { q7z6m3 } from "./support/afdb-emulator.js";
import { at, session, useAfdbEmulator } from "./support/catalog.js";

/** `afCatalog`: a catalog with the plugin pointed at the emulator, closed after the test. */
const { up, catalog: afCatalog } = useAfdbEmulator();

describe("alphafold://structures/{accession}/{format}", () => {
  it("is listed, and reads an accession's model file whole in either format", async () => {
    const catalog = afCatalog(at(up));
    expect(catalog.resourceTemplates()).toEqual([
      expect.objectContaining({
        uriTemplate: "alphafold://structures/{accession}/{format}",
        plugin: "alphafold",
      }),
    ]);
    const model = q7z6m3();
    const pdb = await catalog.readResource("alphafold://structures/Q7Z6M3/pdb", session);
    expect(pdb).toEqual({
      ok: true,
      value: [{ uri: "alphafold://structures/Q7Z6M3/pdb", mimeType: "chemical/x-pdb", text: model.pdb }],
    });
    const cif = await catalog.readResource("alphafold://structures/q7z6m3/mmcif", session);
    expect(cif.ok && cif.value[0]).toMatchObject({ mimeType: "chemical/x-mmcif", text: model.cif });
    expect(
      await catalog.complete(
        { uriTemplate: "alphafold://structures/{accession}/{format}", argument: "format" },
        "m",
      ),
    ).toEqual({
      ok: true,
      value: ["mmcif"],
    });
  });

  it("answers not found for an accession without a model, invalid input for a bad one or format", async () => {
    const catalog = afCatalog(at(up));
    expect(await catalog.readResource("alphafold://structures/P00000/pdb", session)).toMatchObject({
      ok: false,
      kind: "not_found",
    });
    expect(await catalog.readResource("alphafold://structures/not-one/pdb", session)).toMatchObject({
      ok: false,
      kind: "invalid_input",
    });
    expect(await catalog.readResource("alphafold://structures/Q7Z6M3/xyz", session)).toMatchObject({
      ok: false,
      kind: "invalid_input",
    });
  });
});
