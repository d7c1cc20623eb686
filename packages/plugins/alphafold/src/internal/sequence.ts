import { fail } from "@quiver/core";

/** ESMFold's documented maximum sequence length (apis.md 4.2: 413 "Sequence is longer than 400."). */
export const ESMFOLD_MAX_LENGTH = 400;

/** The longest sequence AlphaFold DB covers (about 2,700 residues); longer ones are out of every domain here. */
const AFDB_MAX_LENGTH = 2_700;

/** The 20 standard amino acids plus X (unknown), as AlphaFold and ESMFold accept them. */
const AMINO_ACIDS = new Set("ACDEFGHIKLMNPQRSTVWYX");
const NUCLEOTIDES = new Set("ACGTUN");
const MAX_LISTED = 8;

/** Removes FASTA header lines, whitespace and one trailing stop (`*`), and upper-cases the rest. */
export const cleanSequence = (raw: string): string =>
  raw
    .replace(/^\s*[>;].*$/gm, "")
    .replace(/\s+/g, "")
    .replace(/\*$/, "")
    .toUpperCase();

/**
 * Checks that a sequence is a protein sequence the models can fold, and returns it cleaned. Throws
 * `out_of_domain` for an empty sequence, a nucleotide sequence (mostly A/C/G/T/U), letters that are
 * not amino acids (naming each and its position), and sequences beyond AlphaFold DB's coverage.
 */
export const validateSequence = (raw: string): string => {
  const seq = cleanSequence(raw);
  if (seq.length === 0) {
    const message = `The sequence is empty: there are no residues to fold (FASTA headers and whitespace are ignored).`;
    const suggestion = `Give the protein sequence in one-letter code, e.g. MKTAYIAKQR…, or a uniprot_accession.`;
    throw fail.outOfDomain(message, { suggestion });
  }
  const nucleotide = [...seq].filter((c) => NUCLEOTIDES.has(c)).length;
  if (seq.length >= 10 && nucleotide / seq.length >= 0.9) {
    const kind = seq.includes("U") && !seq.includes("T") ? "RNA" : "DNA";
    const message = `This looks like a ${kind} sequence, not a protein: ${Math.round((100 * nucleotide) / seq.length)}% of its ${seq.length} letters are A/C/G/${kind === "RNA" ? "U" : "T"}. Structure prediction needs amino acids.`;
    const suggestion = `Translate the ${kind} to its protein sequence (one-letter amino-acid code) first, or give the protein's uniprot_accession.`;
    throw fail.outOfDomain(message, { suggestion });
  }
  const bad = [...seq].flatMap((c, i) => (AMINO_ACIDS.has(c) ? [] : [`'${c}' at position ${i + 1}`]));
  if (bad.length > 0) {
    const more = bad.length > MAX_LISTED ? ` and ${bad.length - MAX_LISTED} more` : "";
    const message = `The sequence has ${bad.length} character${bad.length === 1 ? "" : "s"} that ${bad.length === 1 ? "is not an amino acid" : "are not amino acids"}: ${bad.slice(0, MAX_LISTED).join(", ")}${more}.`;
    const suggestion = `Use the 20 standard one-letter amino-acid codes (ACDEFGHIKLMNPQRSTVWY), X for an unknown residue; remove digits, gaps and B/J/O/U/Z.`;
    throw fail.outOfDomain(message, { suggestion });
  }
  if (seq.length > AFDB_MAX_LENGTH) {
    const message = `The sequence has ${seq.length} residues: longer than any model here covers (AlphaFold DB up to about ${AFDB_MAX_LENGTH}, ESMFold up to ${ESMFOLD_MAX_LENGTH}).`;
    const suggestion = `Split it into domains of at most ${ESMFOLD_MAX_LENGTH} residues and predict each, or give a UniProt accession.`;
    throw fail.outOfDomain(message, { suggestion });
  }
  return seq;
};

const ACCESSION = /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-\d{1,3})?$/;

/** Normalises a UniProt accession (or AlphaFold model id `AF-P04637-F1`); invalid formats are invalid input. */
export const normaliseAccession = (raw: string): string => {
  const value = raw.trim().toUpperCase();
  const model = /^AF-([A-Z0-9-]+?)-F\d+$/.exec(value);
  const accession = model ? model[1]! : value;
  if (!ACCESSION.test(accession)) {
    const suggestion = `Use a UniProt accession such as P04637 (TP53) or Q7Z6M3, optionally with an isoform suffix (P04637-2).`;
    throw fail.invalidInput(`uniprot_accession "${raw}" is not a UniProt accession.`, { suggestion });
  }
  return accession;
};
