import * as Redacted from "effect/Redacted";

/** Replaces every secret value (of 4 characters or more) in a text with [REDACTED]. */
export const redactSecrets = (text: string, secrets: ReadonlyArray<Redacted.Redacted<string>>): string => {
  let out = text;
  for (const s of secrets) {
    const v = Redacted.value(s);
    if (v.length >= 4) out = out.split(v).join("[REDACTED]");
  }
  return out;
};
