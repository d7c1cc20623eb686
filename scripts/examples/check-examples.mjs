// Compiles every JSDoc `@example` of an exported symbol (and of its members) in packages/*/src,
// packages/plugins/*/src and apps/host/src against the built packages, and fails on any type error,
// naming the source file and line. `pnpm check:examples` (CI runs it beside lint and typecheck).
//
// The convention (CONTRIBUTING.md, `./dev check:examples`): an example is a short snippet of whole statements,
// written as a reader would type it after the obvious imports. So the check imports for it, by name,
// whatever the snippet uses and does not declare, from the first of: its package's public entry
// points, the module the example sits in, the workspace packages the package depends on, and the
// package's preludes (scripts/examples/preludes/<package>.ts, plugin.ts for a plugin, common.ts;
// copied beside the generated files in <package>/.reports/examples so their imports resolve). A prelude declares, typed, the few
// things an example takes as given (`export declare const catalog: Catalog;`, the `ctx` a tool's
// `run` receives), so a snippet can start where its subject starts. Any other import the snippet
// writes itself. Fenced blocks in another language (```sh, ```json) are not compiled.
// Why not real example files with regions synced into the JSDoc (the MCP SDK's way): two copies of
// each example and a sync step for 200 snippets, most of them one line; imports by name keep the
// JSDoc as short as it is and the check as strict as tsc (strict, exactOptionalPropertyTypes).
//
// Examples in files another change owns right now can be listed, with the reason, in
// known-failures.json: they are reported but do not fail the check; a listed example that compiles
// (or is gone) fails it, so the list only shrinks.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { compileExamples } from "./compile-examples.mjs";
import { examplePackages, root } from "./example-packages.mjs";
import { findExamples } from "./find-examples.mjs";

const known = JSON.parse(readFileSync(new URL("./known-failures.json", import.meta.url), "utf8"));
const packages = examplePackages();
const examples = packages.flatMap((pkg) =>
  pkg.files.flatMap((file) =>
    findExamples(file, readFileSync(file, "utf8")).map((e) => ({ ...e, pkg, file })),
  ),
);
const { results, preludeErrors } = compileExamples(examples, packages);

for (const e of preludeErrors) console.log(e);
let failed = preludeErrors.length;
let knownFailing = 0;
const listed = new Set(Object.keys(known));
for (const r of results) {
  const key = `${relative(root, r.file)}#${r.symbol}`;
  const isKnown = listed.delete(key);
  if (r.errors.length === 0) {
    if (isKnown) {
      failed++;
      console.log(`${key}: compiles now; remove it from scripts/examples/known-failures.json`);
    }
    continue;
  }
  if (isKnown) knownFailing++;
  else failed++;
  for (const e of r.errors)
    console.log(`${relative(root, r.file)}:${e.line} ${r.symbol}${isKnown ? " (known)" : ""}: ${e.message}`);
}
for (const key of listed) {
  failed++;
  console.log(`${key}: no such example; remove it from scripts/examples/known-failures.json`);
}
const compiling = results.filter((r) => r.errors.length === 0).length;
console.log(
  `\n${results.length} examples in ${packages.length} packages: ${compiling} compile, ` +
    `${knownFailing} known failures (known-failures.json), ${failed} problems.`,
);
process.exitCode = failed > 0 ? 1 : 0;
