const MAX_TEXT = 40;
const MAX_KEYS = 5;

/**
 * What a model sent, in a few words and never the whole value: `string "5abc"`, `number 150`,
 * `array of 3 items`, `object with keys a, b`, `nothing` for a missing field.
 */
export function describeReceived(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const text = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
    return `string ${JSON.stringify(text)}${value.length > MAX_TEXT ? ` (${value.length} characters)` : ""}`;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return `${typeof value} ${String(value)}`;
  }
  if (Array.isArray(value))
    return value.length === 0
      ? "empty array"
      : `array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return "empty object";
    const shown = keys.slice(0, MAX_KEYS).join(", ");
    return `object with keys ${shown}${keys.length > MAX_KEYS ? `, … (${keys.length} keys)` : ""}`;
  }
  return typeof value;
}
