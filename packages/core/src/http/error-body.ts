const MAX_MESSAGE_CHARS = 300;

const asText = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

/** FastAPI / pydantic style: `detail: [{ loc: ["body", "q"], msg: "field required" }]`. */
const fromDetailList = (detail: unknown): string | undefined => {
  if (!Array.isArray(detail)) return undefined;
  const parts = detail.slice(0, 3).map((item: unknown) => {
    if (typeof item === "string") return item;
    if (typeof item !== "object" || item === null) return undefined;
    const record = item as Record<string, unknown>;
    const msg = asText(record.msg) ?? asText(record.message);
    const loc = Array.isArray(record.loc) ? record.loc.filter((p) => p !== "body").join(".") : undefined;
    return msg === undefined ? undefined : loc ? `${loc}: ${msg}` : msg;
  });
  const text = parts.filter((p): p is string => p !== undefined).join("; ");
  return text === "" ? undefined : text;
};

const fromObject = (record: Record<string, unknown>): string | undefined => {
  const error = record.error;
  const nested = (typeof error === "object" && error !== null && !Array.isArray(error) ? error : {}) as {
    readonly [key: string]: unknown;
  };
  return (
    asText(nested.message) ??
    asText(nested.detail) ??
    asText(nested.description) ??
    asText(record.error_description) ??
    (asText(record.message) && asText(error) ? `${asText(error)}: ${asText(record.message)}` : undefined) ??
    asText(record.message) ??
    asText(record.detail) ??
    fromDetailList(record.detail) ??
    asText(error) ??
    fromDetailList(record.errors) ??
    asText(record.title)
  );
};

const clip = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat;
};

/**
 * The error message an upstream put in an error response, if it is easy to find: JSON
 * `{error:{message}}`, `{message}`, `{detail}` (string or FastAPI list), `{error: "..."}`,
 * `{errors:[...]}`, `{error_description}`, `{title}`; or a short plain-text body. HTML pages give
 * `undefined`. The result is one line of at most 300 characters (not yet redacted).
 *
 * @example
 * upstreamErrorMessage('{"error":{"message":"bad search"}}') // "bad search"
 */
export const upstreamErrorMessage = (body: string): string | undefined => {
  const trimmed = body.trim();
  if (trimmed === "") return undefined;
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === "object" && parsed !== null) {
        const found = Array.isArray(parsed)
          ? fromDetailList(parsed)
          : fromObject(parsed as Record<string, unknown>);
        return found === undefined ? undefined : clip(found);
      }
    } catch {
      // not JSON: fall through to plain text
    }
  }
  // An HTML page or a long text is not a message.
  return trimmed.startsWith("<") || trimmed.length > 2 * MAX_MESSAGE_CHARS ? undefined : clip(trimmed);
};
