/** Visits every subschema of a JSON Schema with its path (properties, items, anyOf ...). */
export const walkSchema = (
  schema: unknown,
  visit: (node: Record<string, unknown>, path: string) => void,
  path = "",
): void => {
  if (!schema || typeof schema !== "object") return;
  const node = schema as Record<string, unknown>;
  visit(node, path);
  const props = node.properties as Record<string, unknown> | undefined;
  if (props) for (const [k, v] of Object.entries(props)) walkSchema(v, visit, path ? `${path}.${k}` : k);
  if (node.items) walkSchema(node.items, visit, `${path}[]`);
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const list = node[key];
    if (Array.isArray(list)) {
      for (const [i, s] of list.entries()) walkSchema(s, visit, `${path}<${key}${i}>`);
    }
  }
  if (node.additionalProperties && typeof node.additionalProperties === "object") {
    walkSchema(node.additionalProperties, visit, `${path}{}`);
  }
};
