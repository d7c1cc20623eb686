/** A value as the JSON text a store keeps; undefined for one that is not JSON (a BigInt, a cycle). */
export const toStoredJson = (value: unknown): string | undefined => {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
};

/** A stored JSON text read back; undefined when there is none or it does not parse. */
export const fromStoredJson = <T>(text: string | undefined): T | undefined => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};
