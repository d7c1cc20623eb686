// Non-comment, non-blank lines of one TypeScript file: a line counts when a token of the program
// (not a comment, not whitespace) starts, ends or lies on it. Tokens come from the TypeScript parser's
// own scanner, so `//` inside a string, a template or a regular expression is code, and `//`, `/* */`
// and JSDoc are comments wherever they are.
import ts from "typescript";

const isJsDoc = (node) =>
  node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;

/**
 * The number of lines of `text` holding code (`fileName` picks TS or TSX by its extension).
 *
 * @example
 * countCodeLines("// a comment\nconst url = 'http://x'; /* no *\/\n\n", "a.ts"); // 1
 */
export const countCodeLines = (text, fileName = "file.ts") => {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const lines = new Set();
  const lineOf = (pos) => file.getLineAndCharacterOfPosition(pos).line;
  const visit = (node) => {
    if (isJsDoc(node)) return;
    const children = node.getChildren(file);
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
    const start = node.getStart(file);
    const end = node.getEnd();
    if (end <= start) return;
    // A token over several lines (a template literal, a string with line continuations) fills them.
    for (let line = lineOf(start); line <= lineOf(end - 1); line++) lines.add(line);
  };
  visit(file);
  return lines.size;
};
