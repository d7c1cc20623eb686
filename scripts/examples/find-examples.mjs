// Finds the JSDoc `@example` blocks of exported declarations (and of their members) in a source file,
// with the TypeScript compiler API, as snippets with the source line of each of their lines.
import ts from "typescript";

const CHECKED_FENCES = new Set(["", "ts", "typescript", "js", "javascript", "mts"]);

/** The names a top-level statement exports with an `export` keyword, or `[]`. */
const exportedNamesOf = (statement) => {
  const mods = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
  if (!mods.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return [];
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.map((d) => d.name.getText());
  if (mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return ["default"];
  return statement.name ? [statement.name.getText()] : [];
};

/** Names exported by `export { a, b as c }` lists without a module specifier (local re-exports). */
const localExportLists = (file) => {
  const names = new Set();
  for (const s of file.statements)
    if (
      ts.isExportDeclaration(s) &&
      !s.moduleSpecifier &&
      s.exportClause &&
      ts.isNamedExports(s.exportClause)
    )
      for (const e of s.exportClause.elements) names.add((e.propertyName ?? e.name).getText());
  return names;
};

/** The name of a statement's declaration(s), for the report: `createCatalog`, `Emulator.fault`. */
const nameOf = (node) => {
  if (ts.isVariableStatement(node)) return node.declarationList.declarations[0]?.name.getText() ?? "?";
  if (node.name) return node.name.getText();
  if (ts.isExportAssignment(node)) return "default";
  return ts.SyntaxKind[node.kind];
};

/** The top-level statement holding `node`, or undefined when a function body or block lies between. */
const topStatement = (node, file) => {
  let path = [];
  for (let n = node; n && n !== file; n = n.parent) {
    if (ts.isBlock(n) || ts.isModuleBlock(n)) return undefined;
    path = [n, ...path];
  }
  return path;
};

/** The snippets of one `@example` tag: its fenced TypeScript blocks, or the whole text when unfenced. */
const snippetsOf = (lines) => {
  if (!lines.some((l) => l.text.trimStart().startsWith("```"))) return [lines];
  const snippets = [];
  let open;
  for (const l of lines) {
    const fence = /^\s*```\s*(\w*)/.exec(l.text);
    if (!fence) {
      open?.lines.push(l);
      continue;
    }
    if (open) {
      if (open.checked) snippets.push(open.lines);
      open = undefined;
    } else {
      open = { checked: CHECKED_FENCES.has(fence[1].toLowerCase()), lines: [] };
    }
  }
  return snippets;
};

/**
 * Every `@example` of an exported symbol in one file: `{ symbol, line, lines: [{ text, line }] }`,
 * lines 1-based as an editor shows them.
 */
export const findExamples = (fileName, text) => {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const exportedLocally = localExportLists(file);
  const seen = new Set();
  const found = [];
  const visit = (node) => {
    for (const doc of node.jsDoc ?? []) {
      for (const tag of doc.tags ?? []) {
        if (tag.tagName.text !== "example" || seen.has(tag)) continue;
        seen.add(tag);
        const path = topStatement(node, file);
        if (!path) continue;
        const [top, ...members] = path;
        const names = exportedNamesOf(top);
        const exported =
          names.length > 0 || ts.isExportAssignment(top) || (top.name && exportedLocally.has(nameOf(top)));
        if (!exported) continue;
        const memberNames = members.filter((m) => m.name && !ts.isVariableDeclarationList(m)).map(nameOf);
        const symbol = [nameOf(top), ...memberNames.filter((n, i) => i > 0 || n !== nameOf(top))].join(".");
        found.push({ symbol, lines: tagLines(file, text, tag) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const result = [];
  const count = new Map();
  for (const { symbol, lines } of found) {
    for (const snippet of snippetsOf(lines)) {
      if (snippet.every((l) => l.text.trim() === "")) continue;
      const n = (count.get(symbol) ?? 0) + 1;
      count.set(symbol, n);
      result.push({ symbol: n === 1 ? symbol : `${symbol}#${n}`, line: snippet[0].line, lines: snippet });
    }
  }
  return result;
};

/** The lines of a tag's text after `@example`, without the comment's ` * ` margin. */
const tagLines = (file, text, tag) => {
  const start = tag.tagName.end;
  const raw = text.slice(start, tag.end).replace(/\*\/\s*$/, "");
  const first = file.getLineAndCharacterOfPosition(start).line + 1;
  const lines = raw
    .split("\n")
    .map((t, i) => ({ text: (i === 0 ? t : t.replace(/^\s*\* ?/, "")).trimEnd(), line: first + i }));
  // The rest of the `@example` line is a caption, not code.
  lines.shift();
  while (lines.length > 0 && lines.at(-1).text.trim() === "") lines.pop();
  return lines;
};
