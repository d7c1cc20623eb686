/**
 * The variables of a resource template and its expansion, for the two expressions plugins may use
 * (RFC 6570 `{name}`, percent-encoded, and `{+name}`, which keeps reserved characters such as `/`). By hand:
 * a library (url-template) would add a dependency to the bundle for these few lines.
 */
const EXPRESSION = /\{(\+?)([A-Za-z0-9_]+)\}/g;

/** The template's variable names, in order, each once. */
export const templateVariables = (template: string): string[] => [
  ...new Set([...template.matchAll(EXPRESSION)].map((m) => m[2]!)),
];

/** The URI the template names with these values (a missing value expands to nothing). */
export const expandTemplate = (template: string, values: Readonly<Record<string, string>>): string =>
  template.replace(EXPRESSION, (_, plus: string, name: string) => {
    const value = values[name] ?? "";
    return plus ? encodeURI(value) : encodeURIComponent(value);
  });
