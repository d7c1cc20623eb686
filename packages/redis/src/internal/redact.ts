const MASK = "<redacted>";

/** Replaces every secret inside a string. */
const scrubText = (text: string, secrets: ReadonlyArray<string>): string =>
  secrets.reduce((acc, secret) => (secret.length > 0 ? acc.split(secret).join(MASK) : acc), text);

const containsSecret = (text: string, secrets: ReadonlyArray<string>): boolean =>
  secrets.some((secret) => secret.length > 0 && text.includes(secret));

/**
 * A copy of a logged value with the secrets masked: strings are scrubbed, an Error whose text holds a
 * secret becomes a new Error with scrubbed message and stack, arrays are scrubbed item by item.
 */
export const scrub = (value: unknown, secrets: ReadonlyArray<string>): unknown => {
  if (typeof value === "string") return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets));
  if (value instanceof Error) {
    const text = `${value.message}\n${value.stack ?? ""}`;
    if (!containsSecret(text, secrets)) return value;
    const copy = new Error(scrubText(value.message, secrets));
    copy.name = value.name;
    copy.stack = scrubText(value.stack ?? "", secrets);
    return copy;
  }
  return value;
};
