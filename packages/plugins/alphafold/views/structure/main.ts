import { App } from "@modelcontextprotocol/ext-apps";
// 3Dmol.js (BSD-3-Clause) over Mol* (MIT, several MB) and NGL (MIT, unmaintained since 2023): a
// maintained WebGL viewer that bundles to about a sixth of the 1 MB budget, reads PDB and mmCIF, and
// colours a cartoon per residue with a function.
import * as $3Dmol from "3dmol";
import { BANDS, bandOf, lowRegions, type Prediction, plddtOf } from "./plddt-bands.js";

// The structure of `alphafold_predict_structure` as an MCP Apps view: the host sends the call's
// result through the official App bridge; a structure too large for the answer is read through its
// resource link with the bridge's resources/read.
const app = new App({ name: "quiver-alphafold-structure", version: "1.0.0" }, {}, { autoResize: true });

const $ = <T extends Element>(selector: string) => document.querySelector<T>(selector)!;
const status = $<HTMLParagraphElement>("#status");
const title = $<HTMLHeadingElement>("#title");
const low = $<HTMLUListElement>("#low");
let viewer: $3Dmol.GLViewer | undefined;

$<HTMLUListElement>("#legend").append(
  ...BANDS.map((b) => {
    const li = document.createElement("li");
    const swatch = Object.assign(document.createElement("span"), { className: "swatch" });
    swatch.style.background = b.colour;
    li.append(swatch, b.label);
    return li;
  }),
);

type Part = { type: string; uri?: string; resource?: { text?: string } };

/** The structure file: inline in the data, embedded in the answer, or read through its resource link. */
const structureText = async (p: Prediction, content: ReadonlyArray<Part>): Promise<string | undefined> => {
  if (p.structure.text) return p.structure.text;
  for (const part of content) {
    if (part.type === "resource" && part.resource?.text) return part.resource.text;
    if (part.type === "resource_link" && part.uri) {
      const read = await app.readServerResource({ uri: part.uri });
      const first = read.contents[0] as { text?: string } | undefined;
      if (first?.text) return first.text;
    }
  }
  return undefined;
};

const draw = (p: Prediction, text: string) => {
  viewer ??= $3Dmol.createViewer($<HTMLDivElement>("#viewer"), { backgroundColor: "white" });
  viewer.clear();
  viewer.addModel(text, p.structure.format === "pdb" ? "pdb" : "cif");
  const colour = (atom: $3Dmol.AtomSpec) => bandOf(plddtOf(p, atom.resi ?? 0, atom.b ?? 0)).colour;
  viewer.setStyle({}, { cartoon: { colorfunc: colour } });
  // Low-confidence stretches stand out: their atoms drawn as sticks over the cartoon.
  for (const r of lowRegions(p))
    viewer.addStyle({ resi: `${r.start}-${r.end}` }, { stick: { colorfunc: colour, radius: 0.25 } });
  viewer.zoomTo();
  viewer.render();
};

const showRegions = (p: Prediction) => {
  const regions = lowRegions(p);
  low.replaceChildren(
    ...(regions.length === 0
      ? [Object.assign(document.createElement("li"), { textContent: "None: every region has pLDDT ≥ 70." })]
      : regions.map((r) => {
          const li = document.createElement("li");
          const button = Object.assign(document.createElement("button"), {
            type: "button",
            textContent: `${r.start === r.end ? `Residue ${r.start}` : `Residues ${r.start}–${r.end}`} (mean pLDDT ${r.mean_plddt.toFixed(1)}, ${bandOf(r.mean_plddt).label.split(" (")[0]?.toLowerCase()})`,
          });
          button.addEventListener("click", () => {
            viewer?.zoomTo({ resi: `${r.start}-${r.end}` });
            viewer?.render();
          });
          li.append(button);
          return li;
        })),
  );
};

app.ontoolresult = async (result) => {
  const envelope = result.structuredContent as { message?: string; data?: Prediction } | undefined;
  const p = envelope?.data;
  if (!p?.structure) {
    status.textContent = envelope?.message ?? "The prediction answered no structure.";
    return;
  }
  title.textContent = p.protein ?? p.model_id ?? "Predicted protein structure";
  const overall = p.confidence_scores.overall;
  status.textContent = `${p.source === "esmfold" ? "ESMFold" : "AlphaFold DB"} model${p.model_id ? ` ${p.model_id}` : ""}, ${p.sequence_length} residues${overall !== undefined ? `, mean pLDDT ${overall.toFixed(1)}` : ""}.`;
  showRegions(p);
  try {
    const text = await structureText(p, (result.content ?? []) as ReadonlyArray<Part>);
    if (text === undefined) status.textContent += " The structure file is not in the answer.";
    else draw(p, text);
  } catch (error) {
    status.textContent += ` The structure could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
};
void app.connect();
