import { type EmulatorResponse, loadJson } from "@quiver/testing";

// How the emulators check a request body against the official SDK's generated request types
// (fixtures/perplexity-sdk-types.json; fixtures/SOURCE.md says where they come from).

/** Fields of an SDK type: whether each is required, and its TypeScript type as text. */
export type Fields = Record<string, { readonly required: boolean; readonly type: string }>;
interface SdkTypes {
  readonly "POST /search": { readonly request: Fields };
  /** `ResponsesRequestInput` (the Agent API's `POST /v1/agent`, alias `/v1/responses`) and `StatusOutput`. */
  readonly "POST /v1/agent": { readonly request: Fields; readonly Status: ReadonlyArray<string> };
  readonly "POST /chat/completions": {
    readonly request: Fields;
    readonly ChatMessageInput: Fields;
    readonly ChatMessageRole: ReadonlyArray<string>;
  };
}
/** Request types of the official SDK (`@perplexity-ai/perplexity_ai`, `src/generated/api.ts`). */
export const SDK_TYPES = loadJson<SdkTypes>(new URL("./fixtures/perplexity-sdk-types.json", import.meta.url));

/**
 * Whether `value` fits a TypeScript type of the SDK's generated file, as far as it can be read from
 * its text: primitives, arrays of them, string-literal unions, `| null`. Other types (objects named
 * by other generated types) are accepted: the plugin sends none of them.
 */
const fits = (type: string, value: unknown): boolean => {
  const members = type
    .replace(/^\((.*)\)$/, "$1")
    .split(/ \| (?![^(]*\))/)
    .map((t) => t.trim().replace(/^\((.*)\)$/, "$1"));
  if (members.length > 1) return members.some((m) => fits(m, value));
  const [t] = members as [string];
  if (t === "null") return value === null;
  if (t === "string") return typeof value === "string";
  if (t === "number") return typeof value === "number" && Number.isFinite(value);
  if (t === "boolean") return typeof value === "boolean";
  if (/^"[^"]*"( \| "[^"]*")*$/.test(t)) return t.split(" | ").some((lit) => JSON.parse(lit) === value);
  if (t.endsWith("[]") && !t.includes(" | "))
    return Array.isArray(value) && value.every((v) => fits(t.slice(0, -2), v));
  return true;
};

/** The first problem of `body` against the SDK's fields: unknown, missing or mistyped. */
export const problem = (
  fields: Fields,
  body: Record<string, unknown>,
  where = "",
): [string, string] | undefined => {
  for (const name of Object.keys(body)) {
    if (!(name in fields)) return [`${where}${name}`, `json: unknown field "${where}${name}"`];
  }
  for (const [name, { required, type }] of Object.entries(fields)) {
    const value = body[name];
    if (value === undefined) {
      if (required) return [`${where}${name}`, `missing field "${where}${name}"`];
      continue;
    }
    if (!fits(type, value)) return [`${where}${name}`, `field "${where}${name}" is not ${type}`];
  }
  return undefined;
};

/** Perplexity's error envelope for a request body it refuses. */
export const invalid = ([param, message]: [string, string]): EmulatorResponse => ({
  status: 400,
  json: { error: { message: `invalid request body: ${message}`, type: "invalid_request", code: 400, param } },
});

/** The JSON body as an object, or undefined when it is not one. */
export const record = (json: unknown): Record<string, unknown> | undefined =>
  typeof json === "object" && json !== null && !Array.isArray(json)
    ? (json as Record<string, unknown>)
    : undefined;
