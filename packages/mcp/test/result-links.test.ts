import { definePlugin, defineTool, outcome } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useServedPlugin } from "./served-plugin.js";

/** A structure file far over the tool's 5,000-character output budget. */
const MODEL = `HEADER    PREDICTION\n${"ATOM      1  CA  GLY A   1       1.000   2.000   3.000  1.00 70.00           C\n".repeat(400)}END\n`;

// A plugin with no resources of its own: its one tool answers a big artifact, which the runtime links.
const foldPlugin = definePlugin({
  id: "folds",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "fold",
      description: "Folds a sequence; answers the model as an embedded PDB file.",
      category: "computational_service",
      input: z.object({ sequence: z.string().describe("Amino acids") }),
      output: z.object({ residues: z.number() }),
      policy: { maxOutputChars: 5_000 },
      run: ({ sequence }) =>
        outcome(
          { residues: sequence.length },
          {
            content: [
              {
                type: "resource",
                resource: { uri: "fold://model.pdb", mimeType: "chemical/x-pdb", text: MODEL },
              },
            ],
          },
        ),
    }),
  ],
});

const served = useServedPlugin(foldPlugin);
/** An SDK client over Streamable HTTP as `principal`, in the era given (else the SDK's default). */
const connect = (principal: "alice" | "bob", era?: "2026-07-28") => served.connect({ principal, era });

describe.each([
  ["2025-11-25", undefined],
  ["2026-07-28", "2026-07-28" as const],
])("a result too large for the answer, over MCP (%s)", (_, era) => {
  it("answers a resource_link block that resources/read reads whole, for its owner only", async () => {
    const alice = await connect("alice", era);
    const result = await alice.callTool({ name: "fold", arguments: { sequence: "MKTAYIAKQR" } });
    const link = (result.content as Array<Record<string, unknown>>).find((b) => b.type === "resource_link");
    expect(link).toMatchObject({ name: "model.pdb", mimeType: "chemical/x-pdb", size: MODEL.length });
    expect(JSON.stringify(result)).not.toContain("ATOM");
    const read = await alice.readResource({ uri: String(link?.uri) });
    expect(read.contents).toEqual([{ uri: link?.uri, mimeType: "chemical/x-pdb", text: MODEL }]);
    const bob = await connect("bob", era);
    await expect(bob.readResource({ uri: String(link?.uri) })).rejects.toMatchObject({ code: -32602 });
  });
});
