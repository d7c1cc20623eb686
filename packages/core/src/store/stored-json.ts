/** A stored JSON text read back; undefined when there is none or it does not parse. */
export const fromStoredJson = <T>(text: string | undefined): T | undefined => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};
