// The names a snippet uses but does not declare itself: the candidates for its automatic imports.
import ts from "typescript";

const bindingNames = (name, out) => {
  if (ts.isIdentifier(name)) out.add(name.text);
  else for (const e of name.elements) if (!ts.isOmittedExpression(e)) bindingNames(e.name, out);
};

/** Names the snippet's own top-level statements declare or import (an import of them would clash). */
const declaredNames = (file) => {
  const names = new Set();
  for (const s of file.statements) {
    if (ts.isVariableStatement(s))
      for (const d of s.declarationList.declarations) bindingNames(d.name, names);
    else if (ts.isImportDeclaration(s) && s.importClause) {
      const c = s.importClause;
      if (c.name) names.add(c.name.text);
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) names.add(c.namedBindings.name.text);
      if (c.namedBindings && ts.isNamedImports(c.namedBindings))
        for (const e of c.namedBindings.elements) names.add(e.name.text);
    } else if (ts.isImportEqualsDeclaration(s) || s.name) names.add(s.name.text);
  }
  return names;
};

/** A property name after a dot (`a.b`, `A.B`), which names no top-level binding. */
const isMemberName = (id) =>
  (ts.isPropertyAccessExpression(id.parent) && id.parent.name === id) ||
  (ts.isQualifiedName(id.parent) && id.parent.right === id);

/** The identifiers `code` refers to that it does not declare at its top level. */
export const freeNames = (code) => {
  const file = ts.createSourceFile("snippet.ts", code, ts.ScriptTarget.Latest, true);
  const declared = declaredNames(file);
  const used = new Set();
  const visit = (node) => {
    if (ts.isIdentifier(node) && !isMemberName(node) && !declared.has(node.text)) used.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return used;
};
