/**
 * Matching a URI against a resource template's simple expressions (RFC 6570 level 1 `{name}`, and
 * `{+name}`, whose value may hold `/`). By hand: the MCP SDK's matcher lives in the SDK, which core
 * does not depend on (the HTTP API and the adapters read resources through the catalog too), and
 * expansion-only libraries (url-template) do not match. `definePlugin` refuses other operators.
 */

const EXPRESSION = /\{(\+?)([A-Za-z0-9_]+)\}/g;

/** The problem with a template's expressions, or undefined when every one is `{name}` or `{+name}`. */
export const templateProblem = (template: string): string | undefined => {
  const rest = template.replace(EXPRESSION, "");
  return /[{}]/.test(rest)
    ? `resource template "${template}" uses an expression other than {name} or {+name}`
    : undefined;
};

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The variables of `uri` under `template` (percent-decoded), or undefined when it does not match.
 *
 * @example
 * matchTemplate("alphafold://structure/{accession}.pdb", "alphafold://structure/P69905.pdb") // { accession: "P69905" }
 */
export const matchTemplate = (
  template: string,
  uri: string,
): Readonly<Record<string, string>> | undefined => {
  const names: string[] = [];
  let pattern = "^";
  let last = 0;
  for (const m of template.matchAll(EXPRESSION)) {
    pattern += literal(template.slice(last, m.index));
    pattern += m[1] === "+" ? "(.+?)" : "([^/?#]+?)";
    names.push(m[2]!);
    last = m.index + m[0].length;
  }
  pattern += `${literal(template.slice(last))}$`;
  const found = new RegExp(pattern).exec(uri);
  if (!found) return undefined;
  const variables: Record<string, string> = {};
  try {
    names.forEach((name, i) => {
      variables[name] = decodeURIComponent(found[i + 1]!);
    });
  } catch {
    return undefined; // a malformed %-escape names no resource
  }
  return variables;
};
