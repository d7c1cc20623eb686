// The checks an MCP Registry entry must pass before `mcp-publisher publish`: the registry's published
// JSON schema (server.schema.json beside this file, see SOURCE.md), then the rules the registry
// enforces beyond it (namespace form, `mcpName` equal to `name`, one exact version everywhere).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { REGISTRY_NAMESPACE, root } from "./served-plugins.mjs";

const require = createRequire(join(root, "package.json"));
const Ajv = require("ajv");
const addFormats = require("ajv-formats");
const schema = JSON.parse(readFileSync(new URL("./server.schema.json", import.meta.url), "utf8"));
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);
/** A plain version: no range, no `latest`, no wildcard (the registry refuses them). */
const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/**
 * What is wrong with a server.json for the npm package whose manifest is `pkg`: a list of lines,
 * empty when it would be accepted.
 *
 * @example
 * serverJsonProblems(JSON.parse(serverJson), pkg) // [] or ["description is 120 characters (at most 100)", ...]
 */
export const serverJsonProblems = (doc, pkg) => {
  const problems = [];
  if (!validate(doc))
    for (const e of validate.errors ?? []) problems.push(`schema: ${e.instancePath || "/"} ${e.message}`);
  const [namespace, rest] = String(doc.name).split("/");
  if (namespace !== REGISTRY_NAMESPACE || !rest)
    problems.push(
      `name "${doc.name}" is not "${REGISTRY_NAMESPACE}/<server>" (the namespace its GitHub login proves)`,
    );
  if (String(doc.description ?? "").length > 100)
    problems.push(`description is ${doc.description.length} characters (at most 100)`);
  if (pkg.mcpName !== doc.name)
    problems.push(`package.json mcpName "${pkg.mcpName}" is not name "${doc.name}"`);
  if (!EXACT.test(doc.version)) problems.push(`version "${doc.version}" is not one exact version`);
  if (doc.version !== pkg.version)
    problems.push(`version ${doc.version} is not the package's ${pkg.version}`);
  for (const p of doc.packages ?? []) {
    if (!EXACT.test(String(p.version)))
      problems.push(`packages: ${p.identifier} version "${p.version}" is not exact`);
    if (p.registryType === "npm" && (p.identifier !== pkg.name || p.version !== pkg.version))
      problems.push(`packages: npm ${p.identifier}@${p.version} is not ${pkg.name}@${pkg.version}`);
  }
  return problems;
};
