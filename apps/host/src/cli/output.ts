import { inspect } from "node:util";

/** Where and how a command prints. */
export interface Output {
  /** `--json`: print machine-readable JSON on stdout and nothing else there. */
  readonly json: boolean;
  /** stdout is a terminal. */
  readonly tty: boolean;
  /** stderr is a terminal (progress bars go there). */
  readonly errTty: boolean;
  /** A line on stdout. */
  readonly print: (line?: string) => void;
  /** A line on stderr (notes, progress, warnings). */
  readonly note: (line: string) => void;
  /** Pretty JSON on stdout. */
  readonly printJson: (value: unknown) => void;
  readonly style: Styles;
}

/** ANSI styles, or identity functions when colour is off. */
export interface Styles {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const plain: Styles = { bold: String, dim: String, red: String, green: String, yellow: String, cyan: String };
const ansi: Styles = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
};

/** Where an output writes: a process stream, or the channel that keeps stdout for `--json`. */
export interface OutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/**
 * The output of one command run: colour only on a terminal without NO_COLOR (FORCE_COLOR forces it).
 *
 * @example
 * const out = createOutput({ json: process.argv.includes("--json") })
 * out.print(out.style.green("ok"))
 */
export const createOutput = (
  opts: {
    readonly json?: boolean;
    readonly stdout?: OutputStream;
    readonly stderr?: OutputStream;
    readonly env?: Readonly<Record<string, string | undefined>>;
    readonly color?: boolean;
  } = {},
): Output => {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  const env = opts.env ?? process.env;
  const tty = stdout.isTTY === true;
  const errTty = stderr.isTTY === true;
  const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0";
  const color = opts.color ?? (force || (tty && !env.NO_COLOR && env.TERM !== "dumb"));
  return {
    json: opts.json === true,
    tty,
    errTty,
    print: (line = "") => {
      stdout.write(`${line}\n`);
    },
    note: (line) => {
      stderr.write(`${line}\n`);
    },
    printJson: (value) => {
      stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    style: color ? ansi : plain,
  };
};

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Pads cells into aligned columns (the last column is not padded). */
export const columns = (rows: ReadonlyArray<ReadonlyArray<string>>, gap = 2): string[] => {
  const visible = (s: string) => s.replace(ANSI, "").length;
  const widths: number[] = [];
  for (const r of rows) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visible(c));
    });
  }
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c + " ".repeat(widths[i]! - visible(c) + gap)))
      .join("")
      .trimEnd(),
  );
};

/** A value as readable text for a terminal (objects as indented JSON-like text). */
export const readable = (value: unknown, color: boolean): string =>
  typeof value === "string"
    ? value
    : inspect(value, { depth: 6, colors: color, breakLength: 100, maxArrayLength: 50 });

/** The first sentence of a description. */
export const firstSentence = (text: string): string => {
  const m = /^(.+?[.!?])(?:\s+(?=[A-Z`])|$)/.exec(text.trim());
  return m ? m[1]! : text.trim();
};
