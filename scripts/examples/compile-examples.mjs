// Writes each example into a module of its own, with its automatic imports, and type-checks them all
// in one TypeScript program against the built packages (dist/*.d.ts).
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import ts from "typescript";
import { workspacePackages } from "../workspace.mjs";
import { root } from "./example-packages.mjs";
import { freeNames } from "./snippet-names.mjs";

/**
 * tsconfig.base.json's options, resolving `@quiver/*` to their built types (no `@quiver/source`)
 * from any package, as for a reader who installed them: core's examples may import a plugin.
 */
const compilerOptions = () => {
  const path = join(root, "tsconfig.base.json");
  const { config } = ts.readConfigFile(path, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, path);
  const paths = {};
  for (const { dir, pkg } of workspacePackages())
    for (const [key, target] of Object.entries(pkg.exports ?? {}))
      if (typeof target?.types === "string")
        paths[key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`] = [join(dir, target.types)];
  return {
    ...options,
    paths,
    noEmit: true,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    customConditions: [],
  };
};

/** Every name a module exports, mapped to whether it is a value (else a type only). */
const exportsOf = (checker, file) => {
  const names = new Map();
  const moduleSymbol = file && checker.getSymbolAtLocation(file);
  if (!moduleSymbol) return names;
  for (const s of checker.getExportsOfModule(moduleSymbol)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    names.set(s.name, (target.flags & ts.SymbolFlags.Value) !== 0);
  }
  return names;
};

const specifier = (from, to) => {
  const rel = relative(dirname(from), to).replace(/\.d\.ts$|\.ts$/, ".js");
  return rel.startsWith(".") ? rel : `./${rel}`;
};

/** The import lines for the names a snippet uses, from the first source that exports each. */
const importsFor = (code, sources) => {
  const bySpec = new Map();
  for (const name of freeNames(code)) {
    const source = sources.find((s) => s.names.has(name));
    if (!source) continue;
    const list = bySpec.get(source.spec) ?? [];
    list.push(source.names.get(name) ? name : `type ${name}`);
    bySpec.set(source.spec, list);
  }
  return [...bySpec].map(([spec, names]) => `import { ${names.join(", ")} } from "${spec}";`);
};

/**
 * Type-checks `examples` (`{ pkg, file, symbol, line, lines }`): `{ results, preludeErrors }`, each
 * result an example with its `errors` (`{ line, message }`, lines of the source file).
 */
export const compileExamples = (examples, packages) => {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const outDir = (pkg) => join(pkg.dir, ".reports", "examples");
  const resolve = (spec, pkg) =>
    ts.resolveModuleName(spec, join(outDir(pkg), "probe.ts"), options, ts.sys).resolvedModule
      ?.resolvedFileName;
  // A prelude is copied beside the package's examples, so its own imports resolve as theirs do.
  const preludeCopies = new Map();
  for (const pkg of packages) {
    rmSync(outDir(pkg), { recursive: true, force: true });
    mkdirSync(outDir(pkg), { recursive: true });
    pkg.preludeCopies = pkg.preludes.map((p) => {
      const copy = join(outDir(pkg), `prelude-${basename(p)}`);
      copyFileSync(p, copy);
      preludeCopies.set(copy, p);
      return copy;
    });
  }
  const entryFiles = new Map();
  for (const pkg of packages)
    for (const spec of [...pkg.entries, ...pkg.deps])
      entryFiles.set(`${pkg.name} ${spec}`, resolve(spec, pkg));
  const firstRoots = [
    ...new Set([...entryFiles.values(), ...examples.map((e) => e.file), ...preludeCopies.keys()]),
  ];
  const first = ts.createProgram(firstRoots.filter(Boolean), options, host);
  const checker = first.getTypeChecker();
  const exportsCache = new Map();
  const exportsAt = (path) => {
    if (!exportsCache.has(path))
      exportsCache.set(path, exportsOf(checker, path && first.getSourceFile(path)));
    return exportsCache.get(path);
  };

  const generated = new Map();
  for (const [i, example] of examples.entries()) {
    const { pkg } = example;
    const out = join(
      outDir(pkg),
      `${String(i).padStart(3, "0")}-${example.symbol.replace(/[^\w]+/g, "-")}.ts`,
    );
    const sources = [
      ...pkg.entries.map((spec) => ({ spec, names: exportsAt(entryFiles.get(`${pkg.name} ${spec}`)) })),
      { spec: specifier(out, example.file), names: exportsAt(example.file) },
      ...pkg.deps.map((spec) => ({ spec, names: exportsAt(entryFiles.get(`${pkg.name} ${spec}`)) })),
      ...pkg.preludeCopies.map((p) => ({ spec: specifier(out, p), names: exportsAt(p) })),
    ];
    const code = example.lines.map((l) => l.text).join("\n");
    const header = [
      `// From ${relative(root, example.file)}:${example.line} (${example.symbol}); written by scripts/examples.`,
      ...importsFor(code, sources),
    ];
    writeFileSync(out, `${header.join("\n")}\n${code}\nexport {};\n`);
    generated.set(out, { example, headerLines: header.length });
  }

  const program = ts.createProgram([...generated.keys(), ...preludeCopies.keys()], options, host, first);
  const byFile = new Map([...generated].map(([out, g]) => [out, { ...g.example, errors: [] }]));
  for (const [out, { example, headerLines }] of generated) {
    const sf = program.getSourceFile(out);
    for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
      const at = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line - headerLines;
      const line = example.lines[Math.max(0, Math.min(at, example.lines.length - 1))].line;
      const message = `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
      byFile.get(out).errors.push({ line, message });
    }
  }
  const preludeErrors = [...preludeCopies].flatMap(([copy, original]) => {
    const sf = program.getSourceFile(copy);
    return program.getSemanticDiagnostics(sf).map((d) => {
      const line = sf.getLineAndCharacterOfPosition(d.start ?? 0).line + 1;
      return `${relative(root, original)}:${line}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
  });
  return { results: [...byFile.values()], preludeErrors: [...new Set(preludeErrors)] };
};
