/** Three-letter residue names to one-letter codes (the 20 standard amino acids). */
export const THREE_TO_ONE: Readonly<Record<string, string>> = Object.fromEntries(
  "ALA ARG ASN ASP CYS GLN GLU GLY HIS ILE LEU LYS MET PHE PRO SER THR TRP TYR VAL"
    .split(" ")
    .map((name, i) => [name, "ARNDCQEGHILKMFPSTWYV".charAt(i)]),
);

/**
 * Per-residue pLDDT read from a structure file, in residue order, empty: residue numbers as written in the file, pLDDT on the file's scale, see
 * {@link toPercent}, and the one-letter sequence, X for non-standard. With it, the function that adds one
 * residue: a residue number or score that is not a number is skipped, and so is a repeat of
 * the residue just added (alternate locations: the first wins).
 */
const collect = () => {
  const scores = { residues: [] as number[], plddt: [] as number[], sequence: "" };
  const add = (n: number, plddt: number, name = "") => {
    if (!Number.isFinite(n) || !Number.isFinite(plddt) || scores.residues.at(-1) === n) return;
    scores.residues.push(n);
    scores.plddt.push(plddt);
    scores.sequence += THREE_TO_ONE[name.trim()] ?? "X";
  };
  return [scores, add] as const;
};

/**
 * Per-residue pLDDT from a PDB file: the B-factor (columns 61–66) of each residue's CA atom, first
 * model, first chain. AlphaFold writes 0–100; ESMFold 0–1.
 */
export const plddtFromPdb = (text: string) => {
  const [scores, add] = collect();
  let chain: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("ENDMDL")) break;
    if (!line.startsWith("ATOM") || line.slice(12, 16).trim() !== "CA") continue;
    chain ??= line.slice(21, 22);
    if (line.slice(21, 22) === chain)
      add(Number(line.slice(22, 26)), Number(line.slice(60, 66)), line.slice(17, 20));
  }
  return scores;
};

/** Splits one mmCIF data row into tokens (quoted tokens may hold spaces). */
const tokensOf = (line: string): string[] =>
  [...line.matchAll(/'([^']*)'(?=\s|$)|"([^"]*)"(?=\s|$)|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);

/** Reads one `loop_` category of an mmCIF file as rows of named columns. */
const readLoop = (lines: ReadonlyArray<string>, category: string): Array<Record<string, string>> => {
  const prefix = `${category}.`;
  const start = lines.findIndex((line, i) => line.trim() === "loop_" && lines[i + 1]?.startsWith(prefix));
  if (start < 0) return [];
  const columns: string[] = [];
  let j = start + 1;
  for (; lines[j]?.startsWith(prefix); j++) columns.push(lines[j]!.slice(prefix.length).trim());
  const rows: Array<Record<string, string>> = [];
  for (const line of lines.slice(j)) {
    if (line.startsWith("#") || line.startsWith("loop_") || line.startsWith("_")) break;
    const t = tokensOf(line);
    if (t.length >= columns.length) rows.push(Object.fromEntries(columns.map((c, k) => [c, t[k]!])));
  }
  return rows;
};

/**
 * Per-residue pLDDT from an mmCIF file: `_atom_site.B_iso_or_equiv` of each CA atom (first model,
 * first chain), or `_ma_qa_metric_local` when the file has no atoms.
 */
export const plddtFromMmcif = (text: string) => {
  const lines = text.split(/\r?\n/);
  const [scores, add] = collect();
  let first: string | undefined;
  for (const a of readLoop(lines, "_atom_site")) {
    if ((a.label_atom_id ?? a.auth_atom_id) !== "CA") continue;
    const modelAndChain = `${a.pdbx_PDB_model_num ?? "1"} ${a.label_asym_id ?? a.auth_asym_id ?? "A"}`;
    first ??= modelAndChain;
    const name = a.label_comp_id ?? a.auth_comp_id;
    if (modelAndChain === first) add(Number(a.label_seq_id ?? a.auth_seq_id), Number(a.B_iso_or_equiv), name);
  }
  if (scores.residues.length > 0) return scores;
  for (const r of readLoop(lines, "_ma_qa_metric_local"))
    add(Number(r.label_seq_id), Number(r.metric_value), r.label_comp_id);
  return scores;
};

/** Scores on a 0–1 scale (ESMFold) are moved to AlphaFold's 0–100 scale. */
export const toPercent = (plddt: ReadonlyArray<number>): number[] => {
  const factor = plddt.every((v) => v <= 1) ? 10_000 : 100;
  return plddt.map((v) => Math.round(v * factor) / 100);
};
