import { parseDocument } from "yaml";

/** Front matter and the text after it. */
export interface FrontMatter {
  /** The YAML map of the front matter (YAML 1.2: `2024-02-01` and `yes` stay strings). */
  readonly data: Readonly<Record<string, unknown>>;
  readonly body: string;
  /** What the YAML parser refused, with its line in the file; what it could still read is in `data`. */
  readonly problems: readonly string[];
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Reads YAML front matter (`---` ... `---`) at the start of a text with the `yaml` package, so the whole of
 * YAML 1.2 is understood: nested maps, anchors, block and flow collections, quoting. The fences are found
 * here (YAML has no notion of front matter); a text without them has empty data.
 *
 * @example
 * parseFrontMatter("---\ntitle: Week 3\ntags: [cells]\n---\n# Cells").data // { title: "Week 3", tags: ["cells"] }
 */
export function parseFrontMatter(text: string): FrontMatter {
  const open = OPEN.exec(text);
  if (!open) return { data: {}, body: text, problems: [] };
  // Lines and their breaks alternate, so the body after the closing fence keeps its own breaks (CRLF too).
  const parts = text.slice(open[0].length).split(/(\r?\n)/);
  const lines = parts.filter((_, i) => i % 2 === 0);
  const closeAt = lines.findIndex((line) => CLOSE.test(line));
  if (closeAt < 0) return { data: {}, body: text, problems: ["front matter is not closed by ---"] };
  const body = parts.slice(2 * closeAt + 2).join("");
  const yaml = lines.slice(0, closeAt).join("\n");
  const doc = parseDocument(yaml, { prettyErrors: false });
  // The first line of the YAML is the file's second (after the opening ---).
  const lineOf = (offset: number) => yaml.slice(0, offset).split("\n").length + 1;
  const problems = doc.errors.map((error) => `line ${lineOf(error.pos[0])}: ${error.message}`);
  let value: unknown;
  try {
    // A document from anywhere: an alias bomb (one anchor expanded a billion times) stops at 100 aliases.
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (value === null || value === undefined) return { data: {}, body, problems };
  if (typeof value !== "object" || Array.isArray(value)) {
    return { data: {}, body, problems: [...problems, "front matter is not a map of `key: value` lines"] };
  }
  return { data: value as Record<string, unknown>, body, problems };
}
