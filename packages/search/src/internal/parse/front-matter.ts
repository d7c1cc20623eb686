/** A front-matter value: the YAML subset documents use in practice. */
export type FrontMatterValue = string | number | boolean | null | FrontMatterValue[];

/** Front matter and the text after it. */
export interface FrontMatter {
  readonly data: Record<string, FrontMatterValue>;
  readonly body: string;
  /** Lines that could not be read (nested maps, stray indentation); the rest of the front matter still is. */
  readonly problems: readonly string[];
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/** A plain (unquoted) scalar: null, boolean, number or string, with a trailing ` # comment` removed. */
function plainScalar(raw: string): FrontMatterValue {
  const text = raw.replace(/\s+#.*$/, "").trim();
  if (text === "" || text === "~" || text === "null" || text === "Null" || text === "NULL") return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) && !/^0\d/.test(text)) return Number(text);
  return text;
}

function quoted(raw: string): { value: string; rest: string } | undefined {
  const quote = raw[0];
  if (quote === "'") {
    let value = "";
    for (let i = 1; i < raw.length; i++) {
      if (raw[i] === "'") {
        if (raw[i + 1] === "'") {
          value += "'";
          i++;
        } else return { value, rest: raw.slice(i + 1) };
      } else value += raw[i];
    }
    return undefined;
  }
  if (quote === '"') {
    let value = "";
    const escapes: Record<string, string> = {
      n: "\n",
      t: "\t",
      '"': '"',
      "\\": "\\",
      "/": "/",
      r: "\r",
      "0": "\0",
    };
    for (let i = 1; i < raw.length; i++) {
      const ch = raw[i]!;
      if (ch === "\\" && i + 1 < raw.length) {
        const next = raw[++i]!;
        value += escapes[next] ?? next;
      } else if (ch === '"') return { value, rest: raw.slice(i + 1) };
      else value += ch;
    }
    return undefined;
  }
  return undefined;
}

/** A scalar or a flow sequence (`[a, "b", 3]`). */
function inlineValue(raw: string): FrontMatterValue {
  const text = raw.trim();
  const q = quoted(text);
  if (q && /^\s*(#.*)?$/.test(q.rest)) return q.value;
  if (text.startsWith("[") && text.replace(/\s+#.*$/, "").endsWith("]")) {
    const inner = text.replace(/\s+#.*$/, "").slice(1, -1);
    const items: FrontMatterValue[] = [];
    let rest = inner.trim();
    while (rest.length > 0) {
      const item = quoted(rest);
      if (item) {
        items.push(item.value);
        rest = item.rest.replace(/^\s*,?\s*/, "");
      } else {
        const comma = rest.indexOf(",");
        const piece = comma < 0 ? rest : rest.slice(0, comma);
        if (piece.trim()) items.push(plainScalar(piece));
        rest = comma < 0 ? "" : rest.slice(comma + 1).trim();
      }
    }
    return items;
  }
  return plainScalar(text);
}

/**
 * Reads YAML front matter (`---` ... `---`) at the start of a text: `key: value` pairs with scalars, quoted
 * strings, flow sequences (`[a, b]`), block sequences (`- item` lines) and block scalars (`|`, `>`). Nested maps
 * are not supported and reported as problems. A text without front matter has empty data.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const open = OPEN.exec(text);
  if (!open) return { data: {}, body: text, problems: [] };
  const lines = text.slice(open[0].length).split(/\r?\n/);
  const closeAt = lines.findIndex((line) => CLOSE.test(line));
  if (closeAt < 0) return { data: {}, body: text, problems: ["front matter is not closed by ---"] };
  const body = lines.slice(closeAt + 1).join("\n");
  const data: Record<string, FrontMatterValue> = {};
  const problems: string[] = [];
  const yaml = lines.slice(0, closeAt);
  for (let i = 0; i < yaml.length; i++) {
    const line = yaml[i]!;
    const lineNumber = i + 2;
    if (/^\s*(#.*)?$/.test(line)) continue;
    const pair = /^([^\s#:][^:]*?)\s*:(?:\s+(.*)|\s*)$/.exec(line);
    if (!pair || /^\s/.test(line)) {
      problems.push(`line ${lineNumber}: cannot read ${JSON.stringify(line.trim())}`);
      continue;
    }
    const key = pair[1]!.replace(/^["']|["']$/g, "");
    const value = pair[2]?.trim() ?? "";
    const blockScalar = /^[|>][-+]?\s*(#.*)?$/.test(value);
    // The lines that follow and belong to this key: indented ones, "- item" ones, blank ones in a block scalar.
    let end = i + 1;
    while (end < yaml.length) {
      const next = yaml[end]!;
      if (next.trim() === "" ? !blockScalar : !/^\s/.test(next) && !(value === "" && /^-(\s|$)/.test(next)))
        break;
      end++;
    }
    const block = yaml.slice(i + 1, end);
    i = end - 1;
    if (blockScalar) {
      const indents = block.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
      const indent = indents.length > 0 ? Math.min(...indents) : 0;
      const content = block.map((l) => l.slice(indent)).join("\n");
      // "|" keeps line breaks; ">" folds single line breaks into spaces.
      const text = value.startsWith(">")
        ? content.replace(/([^\n])\n(?=[^\n])/g, "$1 ").replace(/\n\n/g, "\n")
        : content;
      data[key] = text.replace(/\n+$/, "");
    } else if (value === "" && block.length > 0) {
      const items = block.filter((l) => l.trim() !== "");
      if (items.every((l) => /^\s*-(\s|$)/.test(l))) {
        data[key] = items.map((l) => inlineValue(l.replace(/^\s*-\s?/, "")));
      } else {
        problems.push(`line ${lineNumber}: nested map under ${JSON.stringify(key)} is not supported`);
      }
    } else {
      data[key] = inlineValue(value);
    }
  }
  return { data, body, problems };
}
