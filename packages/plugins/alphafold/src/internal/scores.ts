import type { Prediction } from "./output.js";
import { bandFractions, lowConfidenceWarnings, overallOf, regionsOf } from "./plddt.js";

/** The confidence part of a prediction from per-residue pLDDT (0–100). */
export const confidenceParts = (perResidue: ReadonlyArray<number>, firstResidue: number) => ({
  confidence_scores: {
    overall: overallOf(perResidue),
    per_residue: [...perResidue],
    first_residue: firstResidue,
  },
  plddt_band_fractions: bandFractions(perResidue),
  regions: regionsOf(perResidue, firstResidue),
  lowWarnings: lowConfidenceWarnings(perResidue, firstResidue),
});

/** The structure part: the text inline when it fits, else the link (or a CA trace when there is no link). */
export const structurePart = (
  format: "pdb" | "mmcif",
  text: string | undefined,
  url: string | undefined,
  maxChars: number,
  caTrace?: () => string,
): Prediction["structure"] => {
  if (text !== undefined && text.length <= maxChars) {
    return { format, content: "full_atom", inline: true, text, ...(url ? { url } : {}), chars: text.length };
  }
  if (url)
    return {
      format,
      content: "none",
      inline: false,
      url,
      ...(text !== undefined ? { chars: text.length } : {}),
    };
  const trace = caTrace?.();
  if (trace !== undefined && trace.length <= maxChars) {
    return {
      format,
      content: "ca_trace",
      inline: true,
      text: trace,
      ...(text !== undefined ? { chars: text.length } : {}),
    };
  }
  return { format, content: "none", inline: false, ...(text !== undefined ? { chars: text.length } : {}) };
};
