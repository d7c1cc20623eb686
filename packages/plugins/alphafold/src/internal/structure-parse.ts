/** Three-letter residue names to one-letter codes (the 20 standard amino acids). */
export const THREE_TO_ONE: Readonly<Record<string, string>> = {
  ALA: "A",
  ARG: "R",
  ASN: "N",
  ASP: "D",
  CYS: "C",
  GLN: "Q",
  GLU: "E",
  GLY: "G",
  HIS: "H",
  ILE: "I",
  LEU: "L",
  LYS: "K",
  MET: "M",
  PHE: "F",
  PRO: "P",
  SER: "S",
  THR: "T",
  TRP: "W",
  TYR: "Y",
  VAL: "V",
};

/** Per-residue pLDDT read from a structure file, in residue order. */
export interface ResidueScores {
  /** Residue numbers as written in the file. */
  readonly residues: ReadonlyArray<number>;
  /** pLDDT per residue (the file's scale; see {@link toPercent}). */
  readonly plddt: ReadonlyArray<number>;
  /** The one-letter sequence of those residues (X for non-standard). */
  readonly sequence: string;
}

/**
 * Per-residue pLDDT from a PDB file: the B-factor (columns 61–66) of each residue's CA atom, first
 * model, first chain. AlphaFold writes 0–100; ESMFold 0–1.
 */
export const plddtFromPdb = (text: string): ResidueScores => {
  const residues: number[] = [];
  const plddt: number[] = [];
  let sequence = "";
  let chain: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("ENDMDL")) break;
    if (!line.startsWith("ATOM")) continue;
    if (line.slice(12, 16).trim() !== "CA") continue;
    const thisChain = line.slice(21, 22);
    chain ??= thisChain;
    if (thisChain !== chain) continue;
    const b = Number(line.slice(60, 66));
    const n = Number(line.slice(22, 26));
    if (!Number.isFinite(b) || !Number.isFinite(n)) continue;
    if (residues.at(-1) === n) continue; // alternate locations: keep the first
    residues.push(n);
    plddt.push(b);
    sequence += THREE_TO_ONE[line.slice(17, 20).trim()] ?? "X";
  }
  return { residues, plddt, sequence };
};

/** Splits one mmCIF data row into tokens (quoted tokens may hold spaces). */
const tokensOf = (line: string): string[] => {
  const out: string[] = [];
  const re = /'([^']*)'(?=\s|$)|"([^"]*)"(?=\s|$)|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
};

/** Reads one `loop_` category of an mmCIF file as rows of named columns. */
const readLoop = (lines: ReadonlyArray<string>, category: string): Array<Record<string, string>> => {
  const prefix = `${category}.`;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "loop_" || !lines[i + 1]?.startsWith(prefix)) continue;
    const columns: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j]!.startsWith(prefix))
      columns.push(lines[j++]!.slice(prefix.length).trim());
    const rows: Array<Record<string, string>> = [];
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.startsWith("#") || line.startsWith("loop_") || line.startsWith("_")) break;
      const t = tokensOf(line);
      if (t.length < columns.length) continue;
      rows.push(Object.fromEntries(columns.map((c, k) => [c, t[k]!])));
    }
    return rows;
  }
  return [];
};

/**
 * Per-residue pLDDT from an mmCIF file: `_atom_site.B_iso_or_equiv` of each CA atom (first model,
 * first chain), or `_ma_qa_metric_local` when the file has no atoms.
 */
export const plddtFromMmcif = (text: string): ResidueScores => {
  const lines = text.split(/\r?\n/);
  const atoms = readLoop(lines, "_atom_site");
  const residues: number[] = [];
  const plddt: number[] = [];
  let sequence = "";
  let chain: string | undefined;
  let model: string | undefined;
  for (const a of atoms) {
    if ((a.label_atom_id ?? a.auth_atom_id) !== "CA") continue;
    const thisModel = a.pdbx_PDB_model_num ?? "1";
    model ??= thisModel;
    const thisChain = a.label_asym_id ?? a.auth_asym_id ?? "A";
    chain ??= thisChain;
    if (thisModel !== model || thisChain !== chain) continue;
    const n = Number(a.label_seq_id ?? a.auth_seq_id);
    const b = Number(a.B_iso_or_equiv);
    if (!Number.isFinite(n) || !Number.isFinite(b) || residues.at(-1) === n) continue;
    residues.push(n);
    plddt.push(b);
    sequence += THREE_TO_ONE[a.label_comp_id ?? a.auth_comp_id ?? ""] ?? "X";
  }
  if (residues.length > 0) return { residues, plddt, sequence };
  for (const r of readLoop(lines, "_ma_qa_metric_local")) {
    const n = Number(r.label_seq_id);
    const v = Number(r.metric_value);
    if (!Number.isFinite(n) || !Number.isFinite(v)) continue;
    residues.push(n);
    plddt.push(v);
    sequence += THREE_TO_ONE[r.label_comp_id ?? ""] ?? "X";
  }
  return { residues, plddt, sequence };
};

/** The global pLDDT an mmCIF file declares (`_ma_qa_metric_global.metric_value`), if any. */
export const globalPlddtFromMmcif = (text: string): number | undefined => {
  const m = /^_ma_qa_metric_global\.metric_value\s+([\d.]+)/m.exec(text);
  return m ? Number(m[1]) : undefined;
};

/** Scores on a 0–1 scale (ESMFold) are moved to AlphaFold's 0–100 scale. */
export const toPercent = (plddt: ReadonlyArray<number>): number[] => {
  const max = plddt.reduce((a, b) => Math.max(a, b), 0);
  return max <= 1
    ? plddt.map((v) => Math.round(v * 10_000) / 100)
    : plddt.map((v) => Math.round(v * 100) / 100);
};

/** Only the CA atoms of a PDB file (one line per residue), for when the full model is too large to inline. */
export const caTrace = (pdb: string): string =>
  `${pdb
    .split(/\r?\n/)
    .filter((l) => (l.startsWith("ATOM") && l.slice(12, 16).trim() === "CA") || l.startsWith("TER"))
    .join("\n")}\nEND\n`;
